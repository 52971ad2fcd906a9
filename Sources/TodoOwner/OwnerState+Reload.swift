import Foundation
import TodoModel
import TodoStoreInterface
import TodoViewModels

/// A shared list that is no longer the one this instance holds (a backup
/// restored under it, a list copied over it): the instance starts again
/// from what the database holds, as if it had just started, without
/// dropping its clients.
extension OwnerState {
    /// The items this instance holds that `snapshot` lacks, or holds
    /// otherwise: what starting again from `snapshot` would lose here. The
    /// shell saves them aside before `reload`; nothing writes them back.
    public func itemsLeftBehind(by snapshot: ListSnapshot) -> [TodoItem] {
        let there = Dictionary(snapshot.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return viewModel.snapshot.items.filter { there[$0.id] != $0 }
    }

    /// Starts again from `shared`, the list as the database holds it now.
    /// Nothing may be waiting to be committed (`takeBack` first): it was
    /// planned on a list that no longer exists.
    ///
    /// Clients stay connected. Every subscription gets its view's whole
    /// state as a reset event at the new revision; one to a named view the
    /// new list does not have ends with `view.removed`. A client resuming
    /// later from a revision of the old list is reset (the epoch changed,
    /// or the history starts at the new revision).
    public mutating func reload(_ shared: SharedSnapshot, notice: String) {
        precondition(isSettled, "reloading with transactions in flight")
        let ownViews = viewModel.ownViewDefinitions
        let reloaded = TodoListViewModel(
            snapshot: shared.snapshot, clock: clock, reminderAge: options.reminderAge,
            desktop: options.desktop, dueSoonLead: options.dueSoonLead, fields: viewModel.fields)
        reloaded.origin = instance
        for (id, definition) in ownViews { _ = try? reloaded.openView(id, definition: definition) }
        viewModel = reloaded
        epoch = shared.epoch
        revision = shared.revision
        publishedRevision = shared.revision
        history = ChangeHistory(revisionLimit: options.historyRevisions, byteLimit: options.historyBytes, floor: shared.revision)
        viewsReplacedAt = [:]
        releasedRevision = nil
        for id in subscriptions.keys.sorted() {
            let subscription = subscriptions[id]!
            if case .shared(let name) = subscription.view, viewModel.state(of: subscription.view) == nil {
                endSubscription(subscription, toRemoved: name)
            }
        }
        for connection in Set(subscriptions.values.map(\.connection)) where connections[connection] != nil {
            sendResets(to: connection)
            touched.insert(connection)
        }
        addNotice(notice)
        changed = true
        requestTick(at: now())
    }

    /// Adds a notice for `server.status` (once: the same words are not added twice).
    public mutating func addNotice(_ notice: String) {
        guard !notices.contains(notice) else { return }
        notices.append(notice)
        changed = true
    }
}
