import Foundation
import TodoDaemon
import TodoPostgres
import TodoStorage
import TodoStoreInterface

extension Todod {
    /// What to tell a user whose data directory still holds a list of its
    /// own while todod serves a shared one: its items would otherwise sit
    /// in `todos.sqlite`, unseen. Nothing when that list is empty, is the
    /// shared list itself (copied there with `todod migrate`), or was
    /// merged into it already.
    static func localListNotice(path: String, shared store: PostgresListStore, storeURL: String) -> String? {
        guard let local = LocalListSummary.read(path: path), local.items > 0, local.listID != store.listID else { return nil }
        if (try? store.merged(listID: local.listID)) != nil { return nil }
        return "the local list \(path) holds \(local.items) \(local.items == 1 ? "item" : "items") that this shared list does not show. "
            + "`todod migrate --merge --from sqlite:\(path) --to \(storeURL)` adds them to it (new ids, one undo step)"
    }
}
