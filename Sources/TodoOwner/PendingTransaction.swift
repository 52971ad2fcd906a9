import TodoProtocol
import TodoViewModels
import TodoViewState

/// A transaction applied to memory and not yet durable: what to store, what
/// to announce once it is, and how to take it back if it cannot be.
public struct PendingTransaction {
    public var revision: Int
    var changes: [ViewID: TodoListChange]
    public var cause: Cause?
    public var write: ListWrite?
    var applied: AppliedChange?
    var isTick = false
    /// A named view this transaction removes: its subscriptions end when
    /// the transaction is published, not before (it may yet fail).
    public var removedView: String? = nil
    /// The request that made it (shared list: planned again on a conflict).
    var request: (connection: Int, request: IncomingRequest)? = nil
}

/// One client's subscription to a view.
struct Subscription {
    let id: Int
    let connection: Int
    let view: ViewID
    let watched: PropertySelection
    /// Events up to this revision are already in the state the subscriber holds.
    var seen: Int
}
