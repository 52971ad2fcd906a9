import Foundation
import NIOCore
import TodoModel
import TodoOwner
import TodoStoreInterface

/// The database no longer holds the list this instance holds: a backup was
/// restored under it (the revision went back, or the tables were made
/// anew), or another list was copied over it (`todod migrate --force`).
///
/// Going on would apply the new list's changes to the old one, or store
/// edits planned on a list that no longer exists, and an id could name two
/// items at once. So the instance refuses what is under way, saves aside
/// what it holds that the database lacks (an export file in its data
/// directory, for the user to import or not: it is never written back
/// silently), gives a restored list a new epoch, and starts again from
/// what the database holds, resetting its subscribers. Until that is done,
/// edits are refused (`store.unavailable`) and reads served as they were.
extension SharedListFollower {
    func reload(after moved: SharedListMoved, _ owner: ListOwner) {
        guard policy.value.storeRead != .reload else { return }
        policy.value.storeRead = .reload
        policy.value.moved = moved
        let (epoch, nextID) = owner.state.withValue { state in
            if !state.isSettled { state.takeBack(because: BatchWriteError(stored: 0, underlying: moved)) }
            return (state.epoch, state.viewModel.nextID.rawValue)
        }
        owner.noticed("\(moved); reloading it", .warning)
        let store = self.store
        owner.writer.read(
            { _ in
                // Whichever instance notices first renews the epoch; the others then find it renewed.
                try store.startNewHistory(replacing: epoch, nextID: nextID)
                return try store.loadShared()
            }, on: loop
        ) { result in
            switch result {
            case .success(let shared): self.finishReload(shared, after: moved, owner)
            case .failure(let error):
                // Tried again on the next read (every few seconds, or when the store announces).
                self.policy.value.storeRead = nil
                self.policy.value.moved = nil
                self.lostStore(error, owner, unreachable: true)
            }
            owner.finishTurn()
        }
    }

    private func finishReload(_ shared: SharedSnapshot, after moved: SharedListMoved, _ owner: ListOwner) {
        // The store answered the whole list: it is in reach, even if a read
        // before (while the database was being restored) said it was not,
        // and edits made on the reloaded list are committed, not refused.
        storeAnswered(owner)
        let (leftBehind, document) = owner.state.withValue { state in
            (state.itemsLeftBehind(by: shared.snapshot), state.viewModel.exportDocument(.taskwarrior, version: state.server.version))
        }
        var saved: String?
        if !leftBehind.isEmpty {
            do {
                saved = try owner.saveAside(document.text(of: leftBehind, itemsBefore: 0, isLast: true))
            } catch {
                // Nothing is dropped unsaved: the old list stays, edits stay refused, and the next read tries again.
                owner.noticed("could not save what this instance held before reloading the shared list: \(error)", .critical)
                policy.value.storeRead = nil
                return
            }
        }
        let notice = Self.notice(moved, shared: shared, leftBehind: leftBehind.count, savedIn: saved)
        owner.state.withValue { state in state.reload(shared, notice: notice) }
        policy.value.storeRead = nil
        policy.value.moved = nil
        policy.value.announcedRevision = shared.revision
        policy.value.otherCommitApplied = .distantPast
        owner.noticed(notice, .warning)
    }

    /// What `server.status`, the journal and the status line say once the list is reloaded.
    static func notice(_ moved: SharedListMoved, shared: SharedSnapshot, leftBehind: Int, savedIn path: String?) -> String {
        var text = "\(moved); reloaded it at revision \(shared.revision)"
        if let path {
            text += ". This instance held \(leftBehind) \(leftBehind == 1 ? "item" : "items") that the list lacks or holds otherwise, "
                + "saved in \(path): look through it, and `todoctl import \(path)` brings them in"
        } else {
            text += "; this instance held nothing the list lacks"
        }
        return text
    }
}
