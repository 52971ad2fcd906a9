import Synchronization

/// How many tabs or connections are open, up to a limit: a flood is turned
/// away here, as todod turns away connections past its own limit.
final class TabCount: Sendable {
    let limit: Int
    private let count = Atomic<Int>(0)
    /// Whether a refusal was said since the count last fell to half the
    /// limit: the journal hears once that a flood is turned away, not once
    /// a connection.
    private let refusalSaid = Atomic<Bool>(false)

    init(limit: Int) { self.limit = limit }

    var current: Int { count.load(ordering: .relaxed) }

    func enter() -> Bool {
        while true {
            let now = count.load(ordering: .relaxed)
            guard now < limit else { return false }
            if count.compareExchange(expected: now, desired: now + 1, ordering: .relaxed).exchanged { return true }
        }
    }

    func leave() {
        if count.subtract(1, ordering: .relaxed).newValue <= limit / 2 { refusalSaid.store(false, ordering: .relaxed) }
    }

    /// True for the first refusal since the count last fell to half the limit.
    func isFirstRefusal() -> Bool {
        !refusalSaid.exchange(true, ordering: .relaxed)
    }
}
