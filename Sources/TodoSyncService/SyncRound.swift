import CalDAV
import Foundation
import Logging
import TodoInterchange
import TodoSync

/// One sync of the list with the collection: what changed on the server
/// since the last round comes in, what changed in the list goes out, and
/// what changed on both is merged (`ThreeWayMerge`).
///
/// A round decides from state, not from a log: the list as todod exports
/// it now, the server's changes (`sync-collection` since the token, or its
/// whole listing), and for each to-do the version both last agreed on. So
/// a round is safe to repeat after any failure: a write that went through
/// before a crash is found again, equal, and nothing is written twice.
struct SyncRound {
    let client: CalDAVClient
    let state: SyncStateStore
    let list: LocalList
    let collection: CollectionInfo
    let logger: Logger
    let timeZone: TimeZone
    /// The name the list's side has in conflict notes.
    let localName: String
    /// Whether this round may delete more than `DeletionBound` lets a
    /// round delete unasked (`todoctl sync now --allow-deletions`).
    var allowDeletions = false

    /// What a round did.
    struct Report: Sendable {
        var pulled = 0
        var pushed = 0
        var deletedHere = 0
        var deletedThere = 0
        var conflicts: [(uid: String, note: String)] = []
        /// Resources that could not be read, by href, with why.
        var problems: [String: String] = [:]
        var cleared: [String] = []
        /// Whether another round should follow at once (the list changed
        /// under it, or a write met a newer version on the server).
        var again = false
        /// The list's revision the round's changes here were agreed at.
        var revision = 0
        /// Whether a change was left for the next round to read again: a
        /// to-do the list changed while the server's version was applied,
        /// or a write that met a newer version on the server.
        var leftForNextRound = false
        /// Hrefs whose conditional write the server refused (412).
        var refusedWrites: [String] = []
    }

    /// One round. `pollServer` false: only what the list changed goes out
    /// (a local edit costs its own write, not a look at the whole server).
    func run(pollServer: Bool) async throws -> Report {
        var report = Report()
        let records = try state.records()
        var token: String?? = .none
        var remote: [String: SyncPlan.Remote] = [:]
        var removedHrefs: Set<String> = []
        var problemHrefs: Set<String> = Set(try state.problems().keys)

        if pollServer {
            let (changed, removed, newToken) = try await serverChanges(records, unreadable: problemHrefs)
            token = .some(newToken)
            removedHrefs = removed
            for fetched in try await client.fetch(Array(changed.keys)) {
                do {
                    let resource = try CalendarResource(parsing: fetched.calendarData)
                    remote[resource.todo.uid ?? ""] = SyncPlan.Remote(href: fetched.href, etag: fetched.etag, text: fetched.calendarData, resource: resource)
                    if problemHrefs.remove(fetched.href) != nil { report.cleared.append(fetched.href) }
                } catch {
                    report.problems[fetched.href] = error.description
                    problemHrefs.insert(fetched.href)
                    logger.warning("skipping \(fetched.href) on the server: \(error.description); it stays there as it is")
                }
            }
            // Changed and then gone before it was fetched: gone.
            let fetchedHrefs = Set(remote.values.map(\.href)).union(report.problems.keys)
            for href in changed.keys where !fetchedHrefs.contains(href) { removedHrefs.insert(href) }
            for href in removedHrefs where problemHrefs.remove(href) != nil { report.cleared.append(href) }
        }

        var local = try await list.todos()
        // A UID todod stored in lower case before it kept spellings, which
        // the server has in capitals (an iPhone's): the list takes the
        // server's spelling, so that the two are one to-do here too, never
        // one deleted and one new.
        let respelled = respellings(known: Set(records.keys).union(remote.keys), local: local)
        if !respelled.isEmpty {
            try await list.rename(respelled)
            local = try await list.todos()
        }
        // A repeating item completed here: its next occurrence takes over
        // the server's to-do, and the completed one becomes a new one.
        let renames = carriedOnRepetitions(records: records, local: local)
        if !renames.isEmpty {
            try await list.rename(renames)
            local = try await list.todos()
        }

        let plan = SyncPlan(
            records: records, local: local, remote: remote, removedHrefs: removedHrefs, problemHrefs: problemHrefs,
            hrefForUID: client.href(forUID:), localName: localName, now: Date(), timeZone: timeZone)
        if !allowDeletions, let held = plan.heldDeletions { throw held }
        report.pulled = plan.pulled
        report.conflicts = plan.conflicts
        let (toApply, complete, remove) = (plan.toApply, plan.complete, plan.remove)
        var (pushes, agreed, completedOccurrences, forgotten) = (plan.pushes, plan.agreed, plan.completedOccurrences, plan.forgotten)

        if !toApply.isEmpty || !complete.isEmpty || !remove.isEmpty {
            // Each call expects the list's to-dos as this round read them:
            // one edited here since is left out (and merged next round).
            var expected: [String: TodoComponent?] = [:]
            for uid in toApply.compactMap(\.uid) + complete + remove { expected[uid] = .some(local[uid]) }
            let applied = try await list.apply(toApply, complete: complete, remove: remove, expected: expected)
            for line in applied.skipped { logger.warning("todod skipped a to-do from the server: \(line)") }
            for uid in applied.tooLarge {
                if let server = agreed[uid] {
                    logger.warning("skipping \(server.href) on the server: \(server.text.utf8.count) bytes, more than todod takes in one to-do; it stays there as it is")
                }
            }
            for uid in applied.outdated {
                // Changed here while the server's version was on its way:
                // not agreed, not sent; the next round merges the two.
                logger.info("\(uid) changed here meanwhile; merging it next")
                report.leftForNextRound = true
                if agreed.removeValue(forKey: uid) != nil { report.pulled -= 1 }
                completedOccurrences[uid] = nil
                pushes.removeAll { $0.uid == uid }
            }
            // What is agreed is what the list held once the change was made,
            // read in the same transaction: an edit after it is pending.
            for (uid, todo) in applied.exported { local[uid] = todo }
            let removed = Set(remove).subtracting(applied.outdated)
            for uid in removed { local[uid] = nil }
            forgotten.removeAll { remove.contains($0) && applied.outdated.contains($0) }
            // Taken from the server but not into the list (todod refused
            // it): not agreed, so never taken for deleted here; named.
            // Neither agreed nor sent: the server's version stays as it is,
            // and the list's is not written over it.
            // (One also completed is exported all the same: its skip names it.)
            let sent = Set(toApply.compactMap(\.uid))
            let skipped = sent.filter { uid in applied.tooLarge.contains(uid) || applied.skipped.contains { $0.contains("UID \(uid):") } }
            for uid in sent.subtracting(applied.exported.keys).union(skipped).subtracting(applied.outdated) {
                guard let server = remote[uid] else { continue }
                let why =
                    applied.tooLarge.contains(uid)
                    ? "it is \(server.text.utf8.count) bytes, more than todod holds in one to-do (\(LocalList.partBytes >> 10) KiB); it stays on the server as it is"
                    : applied.skipped.first { $0.contains(uid) }.map { "todod cannot hold it (\($0)); it stays on the server as it is" }
                        ?? "todod did not take it in; it stays on the server as it is"
                report.problems[server.href] = why
                if agreed.removeValue(forKey: uid) != nil { report.pulled -= 1 }
                completedOccurrences[uid] = nil
                pushes.removeAll { $0.uid == uid }
            }
            report.deletedHere = removed.count
            report.revision = applied.revision
            report.again = true
        }

        var saved: [SyncRecord] = []
        for (uid, server) in agreed {
            let base = completedOccurrences[uid]?.text ?? local[uid]?.text ?? server.resource.todo.text
            saved.append(.init(uid: uid, href: server.href, etag: server.etag, base: base, resource: server.text))
        }
        do {
            try await write(pushes, plan.deletes, local: local, saved: &saved, forgotten: &forgotten, report: &report)
        } catch {
            // What went through is kept; the token is not moved on, so the
            // next round reads the server's changes again.
            try state.commit(saving: saved, forgetting: forgotten, token: .none)
            throw error
        }
        if report.leftForNextRound {
            // A change read from the server was not agreed (the list changed
            // meanwhile, or the server again): the token stays before it,
            // so that the next round reads it again and merges it.
            token = .none
        } else if report.pushed + report.deletedThere > 0, collection.supportsSyncCollection {
            token = try await tokenAfterOwnWrites(from: token ?? .some(state.token), records: records, saved: saved, forgotten: forgotten)
        }
        try state.commit(saving: saved, forgetting: forgotten, token: token)
        try state.setProblems(report.problems, clearing: report.cleared)
        if !report.conflicts.isEmpty { try state.recordConflicts(report.conflicts, at: Date()) }
        return report
    }

    /// The round's writes to the server, each recorded in `saved` or
    /// `forgotten` as it goes through.
    private func write(
        _ pushes: [SyncPlan.Push], _ deletes: [SyncPlan.Delete], local: [String: TodoComponent],
        saved: inout [SyncRecord], forgotten: inout [String], report: inout Report
    ) async throws {
        for push in pushes {
            guard let todo = local[push.uid] else { continue }
            var resource = push.around ?? CalendarResource(todo: todo)
            // The server's own spelling of a moment both say stays (a
            // phone's due time in its zone, not in UTC).
            resource.todo = todo.keepingDateSpellings(of: push.around?.todo)
            let text = resource.text(productID: "-//todod//todod-sync//EN")
            do {
                let etag = try await client.put(push.href, calendarText: text, condition: push.etag.map(PutCondition.ifMatch) ?? .ifNoneMatch)
                saved.append(.init(uid: push.uid, href: push.href, etag: etag, base: todo.text, resource: text))
                report.pushed += 1
            } catch .uidInUse where push.etag == nil {
                // The server holds this UID at another href it does not list
                // (Xandikos, once a phone gave that href another UID): the
                // to-do can never be written under it. It takes a new UID,
                // and the next round sends it as a new to-do.
                let fresh = UUID().uuidString.lowercased()
                logger.notice("the server holds the UID \(push.uid) elsewhere; the to-do takes the UID \(fresh) and is sent again")
                try await list.rename([(from: push.uid, to: fresh)])
                report.again = true
            } catch {
                guard case .preconditionFailed = error else { throw error }
                // Changed on the server since it was read: the next round
                // reads it and merges.
                logger.info("\(push.href) changed on the server meanwhile; merging it next")
                report.again = true
                report.leftForNextRound = true
                report.refusedWrites.append(push.href)
            }
        }
        for delete in deletes {
            do {
                _ = try await client.delete(delete.href, ifMatch: delete.etag)
                forgotten.append(delete.uid)
                report.deletedThere += 1
            } catch {
                guard case .preconditionFailed = error else { throw error }
                // Edited on the server since: the edit wins, next round.
                report.again = true
                report.leftForNextRound = true
            }
        }
    }

    /// What changed on the server: by `sync-collection` where it has it
    /// (from the token; afresh when the server forgot it), else by
    /// comparing its listing's ETags. Hrefs whose ETag is the one known are
    /// left out: the round's own writes come back that way. Removed are
    /// the hrefs of records and of `unreadable` resources that went: an
    /// unreadable one deleted on the server is no longer named in status.
    private func serverChanges(_ records: [String: SyncRecord], unreadable: Set<String>) async throws
        -> (changed: [String: String], removed: Set<String>, token: String?)
    {
        let known = Dictionary(records.values.map { ($0.href, $0.etag) }, uniquingKeysWith: { first, _ in first })
        var listed: [String: String]
        var removed: Set<String> = []
        var token: String?
        if collection.supportsSyncCollection {
            var since = state.token
            var changes: ChangeSet
            do {
                changes = try await client.changes(since: since)
            } catch {
                guard case .syncTokenInvalid = error else { throw error }
                logger.notice("the server no longer knows the sync token; comparing the whole collection")
                since = nil
                changes = try await client.changes(since: nil)
            }
            token = changes.newToken
            listed = changes.changed
            if since != nil {
                removed = Set(changes.removed).intersection(Set(known.keys).union(unreadable))
                let changed = listed.filter { known[$0.key] != .some($0.value) }
                return (changed, removed, token)
            }
        } else {
            listed = try await client.listing()
        }
        // The whole collection: what is known and not listed is gone, unless
        // nothing is listed at all, which no server is to make us believe.
        if listed.isEmpty, !known.isEmpty {
            throw SyncFailure(
                "the collection lists no to-dos, but \(known.count) were synced with it: not deleting them here; "
                    + "if they were deleted on purpose, run todoctl sync rm and todoctl sync add")
        }
        removed = Set(known.keys).union(unreadable).subtracting(listed.keys)
        return (listed.filter { known[$0.key] != .some($0.value) }, removed, token)
    }

    /// The token to keep after the round's own writes. The token read
    /// before them would show them as changes next time, and a server may
    /// leave out what was made and deleted between two tokens (Xandikos
    /// does): a to-do written here and deleted on a phone before the next
    /// round would never be seen to go. So the changes since are read again:
    /// if they are the round's own writes only, the new token is kept; if
    /// another client changed something meanwhile, the old one, and the next
    /// round reads it.
    private func tokenAfterOwnWrites(
        from token: String??, records: [String: SyncRecord], saved: [SyncRecord], forgotten: [String]
    ) async throws -> String?? {
        guard case .some(.some(let from)) = token else { return token }
        var holding = Dictionary(records.values.map { ($0.href, $0.etag) }, uniquingKeysWith: { first, _ in first })
        for record in saved { holding[record.href] = record.etag }
        let gone = Set(forgotten.compactMap { records[$0]?.href })
        let after: ChangeSet
        do { after = try await client.changes(since: from) } catch { return token }
        let foreign = after.changed.contains { href, etag in holding[href] != .some(etag) || etag.isEmpty }
            || after.removed.contains { !gone.contains($0) }
        return foreign ? token : .some(after.newToken)
    }

    /// The renames that give the list's to-dos the spelling the server or
    /// the record has for the same UID, where only a UUID's case differs.
    private func respellings(known: Set<String>, local: [String: TodoComponent]) -> [(from: String, to: String)] {
        let spelled = Dictionary(known.map { (ExternalIdentity.normalized($0), $0) }, uniquingKeysWith: { first, _ in first })
        return local.keys.sorted().compactMap { uid in
            guard !known.contains(uid), let other = spelled[ExternalIdentity.normalized(uid)], other != uid, local[other] == nil else { return nil }
            return (uid, other)
        }
    }

    /// For each repeating to-do the server knows that the list completed
    /// since (making its next occurrence, a to-do the server does not
    /// know): the renames that give the next occurrence the server's UID and
    /// the completed one a new UID. So the server keeps one to-do whose due
    /// date moves on, and the completed occurrence is a to-do of its own.
    private func carriedOnRepetitions(records: [String: SyncRecord], local: [String: TodoComponent])
        -> [(from: String, to: String)]
    {
        var renames: [(from: String, to: String)] = []
        var taken: Set<String> = []
        for (uid, record) in records {
            guard let here = local[uid], here.isCompleted, here.repeats, let base = try? TodoComponent(parsing: record.base),
                !base.isCompleted, let completed = here.first("COMPLETED")?.value
            else { continue }
            let next = local.first { candidate in
                records[candidate.key] == nil && !taken.contains(candidate.key) && candidate.value.repeats
                    && !candidate.value.isCompleted && candidate.value.first("CREATED")?.value == completed
                    && candidate.value.first("SUMMARY")?.value == here.first("SUMMARY")?.value
            }
            guard let next else { continue }
            taken.insert(next.key)
            renames.append((uid, UUID().uuidString.lowercased()))
            renames.append((next.key, uid))
        }
        return renames
    }
}

/// Why a round stopped, said for `sync status` and the journal.
struct SyncFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
