import Foundation

/// What one round decides, per to-do, from state alone: the agreed
/// versions (`records`), the list as exported (`local`), and what the
/// server changed (`remote`, `removedHrefs`). Pure: no socket, no server,
/// no clock but `now`, so that a seeded test can drive it through any
/// interleaving of edits, crashes and restores (`SyncPlanPropertyTests`);
/// `SyncRound` does the I/O around it.
///
/// For each to-do both sides know, each side is the same as agreed,
/// changed, or deleted:
/// - changed on one side only: that side's version goes to the other;
/// - changed on both: merged field by field (`ThreeWayMerge`);
/// - edited on one side, deleted on the other: the edit wins;
/// - deleted on one side, unchanged on the other: deleted there too, the
///   only way a round deletes, and bounded (`heldDeletions`).
/// A to-do one side has and no record names is copied or, met on both
/// sides, merged with no base: nothing is deleted.
public struct SyncPlan: Sendable {
    /// One to-do as the server has it now.
    public struct Remote: Sendable {
        public var href: String
        public var etag: String
        public var text: String
        public var resource: CalendarResource

        public init(href: String, etag: String, text: String, resource: CalendarResource) {
            self.href = href
            self.etag = etag
            self.text = text
            self.resource = resource
        }
    }

    /// A write to the server.
    public struct Push: Sendable, Equatable {
        public var uid: String
        public var href: String
        /// Written only while the server's ETag is still this one; nil:
        /// only while nothing is there yet (a new to-do, `If-None-Match: *`).
        public var etag: String?
        /// The resource the to-do is written into (what came with it is kept).
        public var around: CalendarResource?
    }

    /// A deletion on the server, while its ETag is the one agreed.
    public struct Delete: Sendable, Equatable {
        public var uid: String
        public var href: String
        public var etag: String?
    }

    /// To-dos to bring into the list (`sync.apply`'s text), to complete
    /// there, and to remove there, by UID.
    public var toApply: [TodoComponent] = []
    public var complete: [String] = []
    public var remove: [String] = []
    public var pushes: [Push] = []
    public var deletes: [Delete] = []
    /// Taken from the server as it is: agreed once the list holds it.
    public var agreed: [String: Remote] = [:]
    /// Repeating to-dos the server completed, by UID: the version agreed is
    /// the one before the list completed it (so the next round carries the
    /// repetition on, as for a completion here).
    public var completedOccurrences: [String: TodoComponent] = [:]
    /// Records to forget: deleted on both sides, or here as the server did.
    public var forgotten: [String] = []
    public var conflicts: [(uid: String, note: String)] = []
    /// How many to-dos come in from the server.
    public var pulled = 0
    /// The deletions this plan makes, when more than a round may make
    /// unasked (`DeletionBound`); completed to-dos do not count.
    public var heldDeletions: DeletionBound?

    private enum Side: Equatable {
        case same, changed, deleted
    }

    /// - Parameters:
    ///   - problemHrefs: resources skipped as unreadable; their records wait.
    ///   - hrefForUID: where a to-do new to the server goes (`CalDAVClient.href(forUID:)`).
    public init(
        records: [String: SyncRecord], local: [String: TodoComponent], remote: [String: Remote], removedHrefs: Set<String>,
        problemHrefs: Set<String>, hrefForUID: (String) -> String, localName: String, now: Date, timeZone: TimeZone
    ) {
        func merge(base: TodoComponent?, here: TodoComponent, there: Remote) -> ThreeWayMerge.Result {
            let sides = ThreeWayMerge.Sides(local: localName, remote: RemoteName.of(productID: there.resource.productID))
            return ThreeWayMerge.merge(base: base, local: here, remote: there.resource.todo, sides: sides, now: now, timeZone: timeZone)
        }
        // A resource another UID has taken over (a calendar gave the to-do at
        // that href a new UID): the to-do the record is of is gone there.
        let takenOver = Set(
            records.values.filter { record in remote.values.contains { $0.href == record.href && $0.resource.todo.uid != record.uid } }.map(\.uid))
        var hrefsInUse = Set(records.values.map(\.href)).union(remote.values.map(\.href)).union(problemHrefs)
        /// The href its UID names, unless another resource holds that one.
        func freshHref(for uid: String) -> String {
            var href = hrefForUID(uid)
            var attempt = 1
            while hrefsInUse.contains(href) {
                attempt += 1
                href = hrefForUID(uid + "-\(attempt)")
            }
            hrefsInUse.insert(href)
            return href
        }

        for uid in records.keys.sorted() {
            let record = records[uid]!
            if problemHrefs.contains(record.href) && !takenOver.contains(uid) { continue }
            let base = try? TodoComponent(parsing: record.base)
            let localSide: Side = local[uid].map { todo in base.map { todo.saysTheSame(as: $0) } == true ? .same : .changed } ?? .deleted
            let server = remote[uid]
            let remoteSide: Side =
                server != nil ? .changed : removedHrefs.contains(record.href) || takenOver.contains(uid) ? .deleted : .same
            let around = try? CalendarResource(parsing: record.resource)
            switch (localSide, remoteSide) {
            case (.same, .same), (.deleted, .deleted):
                if localSide == .deleted { forgotten.append(uid) }
            case (.same, .changed), (.deleted, .changed):
                // Taken in; an item deleted here comes back with the edit.
                var todo = server!.resource.todo
                if let base, let here = local[uid], Self.completesAnOccurrence(todo, base: base, here: here) {
                    todo = todo.taking("STATUS", from: here)
                    complete.append(uid)
                    // Agreed as it was before the list completed it: so the
                    // next round sees the list complete it (as if here), and
                    // `SyncRound.carriedOnRepetitions` gives the next
                    // occurrence this UID and the completed one a new one.
                    // Agreeing on the completed version would leave the
                    // server's to-do completed and send the next occurrence
                    // as a second one.
                    completedOccurrences[uid] = todo
                }
                toApply.append(todo)
                agreed[uid] = server!
                pulled += 1
            case (.changed, .same):
                pushes.append(Push(uid: uid, href: record.href, etag: record.etag, around: around))
            case (.changed, .changed) where local[uid]!.saysTheSame(as: server!.resource.todo):
                agreed[uid] = server!  // both made the same change
            case (.changed, .changed):
                var merged = merge(base: base, here: local[uid]!, there: server!)
                conflicts += merged.conflicts.map { (uid, $0.note) }
                if let base, let here = local[uid], Self.completesAnOccurrence(server!.resource.todo, base: base, here: here) {
                    // The server completed an occurrence of a repeating
                    // to-do the list has open, and the list changed it too.
                    // Taking the server's status would end the repetition
                    // (an import completes no occurrence): the status stays
                    // the list's, the rest is merged.
                    merged.todo = merged.todo.taking("STATUS", from: here)
                    merged.fromRemote.removeAll { $0 == "STATUS" }
                    if !Self.completedHere(server!.resource.todo, carriedOnTo: here, local: local) {
                        // Not completed here yet: the list completes it its
                        // own way, as when only the server changed it (above).
                        toApply.append(merged.todo)
                        complete.append(uid)
                        agreed[uid] = server!
                        completedOccurrences[uid] = merged.todo
                        pulled += 1
                        continue
                    }
                    // Else the list completed that occurrence too, and `here`
                    // is the next one: it goes to the server as it is.
                }
                if !merged.fromRemote.isEmpty || !merged.conflicts.isEmpty { toApply.append(merged.todo) }
                pushes.append(Push(uid: uid, href: server!.href, etag: server!.etag, around: server!.resource))
            case (.deleted, .same):
                deletes.append(Delete(uid: uid, href: record.href, etag: record.etag))
            case (.same, .deleted):
                remove.append(uid)
                forgotten.append(uid)
            case (.changed, .deleted):
                // The edit wins: the to-do goes back to the server (at a
                // href of its own, if another to-do took its old one).
                let href = takenOver.contains(uid) ? freshHref(for: uid) : record.href
                pushes.append(Push(uid: uid, href: href, etag: nil, around: around))
            }
        }
        for uid in remote.keys.sorted() where records[uid] == nil {
            let server = remote[uid]!
            if let here = local[uid] {
                // Met on both sides for the first time: merged with no base.
                let merged = merge(base: nil, here: here, there: server)
                if !merged.fromRemote.isEmpty || !merged.conflicts.isEmpty { toApply.append(merged.todo) }
                conflicts += merged.conflicts.map { (uid, $0.note) }
                pushes.append(Push(uid: uid, href: server.href, etag: server.etag, around: server.resource))
            } else {
                toApply.append(server.resource.todo)
                agreed[uid] = server
                pulled += 1
            }
        }
        for uid in local.keys.sorted() where records[uid] == nil && remote[uid] == nil {
            pushes.append(Push(uid: uid, href: freshHref(for: uid), etag: nil, around: nil))
        }

        // A round that would delete much of either side asks first: a list
        // or a collection emptied by accident looks, from state, exactly
        // like a person deleting everything. Completed to-dos do not count:
        // clearing what is done is routine (todoctl clear, a phone that
        // tidies its completed reminders), and an accident that loses a
        // list loses its open to-dos too.
        let openThere = deletes.count { delete in
            (records[delete.uid].flatMap { try? TodoComponent(parsing: $0.base) }?.isCompleted ?? false) == false
        }
        let openHere = remove.count { local[$0]?.isCompleted != true }
        heldDeletions =
            DeletionBound.held(deleting: openThere, of: records.count, side: "on the server")
            ?? DeletionBound.held(deleting: openHere, of: records.count, side: "in the list")
    }

    /// Whether the agreed versions, recorded for a collection, a list and
    /// the list's history they were agreed in (its epoch and revision), are
    /// a base for the round `now` would run: not for another collection or
    /// list, nor for a list whose history was lost (another epoch: todod
    /// restarted after a crash, or a backup restored), nor for one gone back
    /// to an older revision (a backup of the same epoch restored). `reason`
    /// says why they are forgotten, nil when there was nothing to forget.
    ///
    /// A crash costs a comparison by UID: deleting nothing, it may bring
    /// back what was deleted since the last sync. A base kept for a list
    /// that went back would make its older versions look like edits, and
    /// send them over newer ones.
    public static func forgetting(
        recorded: (collection: String?, list: String?, epoch: String?, revision: Int?), known: Int,
        now: (collection: String, list: String, epoch: String, revision: Int)
    ) -> (forget: Bool, reason: String?) {
        if recorded.collection != now.collection || recorded.list != now.list {
            guard known > 0 || recorded.collection != nil else { return (true, nil) }
            return (
                true,
                "the \(known) agreed versions were for \(recorded.collection ?? "an unrecorded collection") and list \(recorded.list ?? "(unrecorded)"), not \(now.collection) and list \(now.list)"
            )
        }
        if known > 0, let epoch = recorded.epoch, epoch != now.epoch {
            return (
                true,
                "todod's list lost its history since the last sync (epoch \(epoch) is now \(now.epoch): todod restarted after a crash, or its data was restored from a backup), so what was agreed may no longer describe it"
            )
        }
        if let agreedAt = recorded.revision, now.revision < agreedAt {
            return (
                true,
                "todod's list went back from revision \(agreedAt) to \(now.revision) (restored from a backup?), so what was agreed no longer describes it"
            )
        }
        return (false, nil)
    }

    /// Whether the server's `todo` completes the repeating to-do the list
    /// has open: the list completes it its own way (the next occurrence).
    private static func completesAnOccurrence(_ todo: TodoComponent, base: TodoComponent, here: TodoComponent) -> Bool {
        todo.isCompleted && todo.repeats && !base.isCompleted && !here.isCompleted && here.repeats
    }

    /// Whether the list has completed the occurrence the server's `todo`
    /// completes, and carried on to `here`: a completed repeating to-do
    /// here with `here`'s title and `todo`'s due date, completed when
    /// `here` was made (todod stamps both alike).
    private static func completedHere(_ todo: TodoComponent, carriedOnTo here: TodoComponent, local: [String: TodoComponent]) -> Bool {
        guard let created = here.first("CREATED")?.value else { return false }
        return local.values.contains { other in
            other.isCompleted && other.repeats && other.first("COMPLETED")?.value == created
                && other.first("SUMMARY")?.value == here.first("SUMMARY")?.value && other.first("DUE")?.value == todo.first("DUE")?.value
        }
    }
}
