import Foundation
import TodoDaemon
import TodoInterchange
import TodoPostgres
import TodoStorage
import TodoStoreInterface
import TodoViewModels

/// The source is the list the target already is.
struct SameList: Error, CustomStringConvertible {
    var listID: String
    var description: String { "the source is the shared list itself (list \(listID)): there is nothing to merge" }
}

extension Migrate {
    /// Adds `snapshot`'s items to the shared list as an import does: the
    /// source is exported as Taskwarrior JSON (every field, notes and
    /// links included) and imported into the list as it is in the
    /// database, so each item gets a new id and the whole merge is one undo
    /// step. Planned again on the newer list when an instance commits first.
    static func merge(_ snapshot: ListSnapshot, from source: String, into store: PostgresListStore, at target: String) throws -> String {
        let exported = TodoListViewModel(snapshot: snapshot)
        let text = exported.exportDocument(.taskwarrior, version: DaemonVersion.current)
            .text(of: snapshot.items, itemsBefore: 0, isLast: true)
        for _ in 0..<Self.mergeAttempts {
            let shared = try store.loadShared()
            guard shared.snapshot.listID != snapshot.listID else { throw SameList(listID: snapshot.listID) }
            if let (from, at) = try store.merged(listID: snapshot.listID) {
                throw PostgresListStore.AlreadyMerged(listID: snapshot.listID, source: from, mergedAt: at)
            }
            let list = TodoListViewModel(snapshot: shared.snapshot)
            let plan = try list.planImport(text, format: .taskwarrior)
            guard let write = try list.perform(.applyImport(plan)).write else {
                return "\(source) holds no items: nothing merged into \(target)"
            }
            guard let revision = try store.commitMerge(write, after: shared.revision, listID: snapshot.listID, source: source) else {
                continue  // another instance committed meanwhile
            }
            var said = "merged \(plan.count(.add)) items from \(source) into \(target) (revision \(revision)); `todoctl undo` takes them out again"
            if plan.count(.update) > 0 { said += "; \(plan.count(.update)) of them the list held already, and were updated" }
            if plan.count(.skip) > 0 { said += "; \(plan.count(.skip)) skipped" }
            return said
        }
        throw MergeBusy(attempts: mergeAttempts)
    }

    static let mergeAttempts = 20

    struct MergeBusy: Error, CustomStringConvertible {
        var attempts: Int
        var description: String { "other instances committed before each of \(attempts) tries; nothing merged: try again" }
    }
}
