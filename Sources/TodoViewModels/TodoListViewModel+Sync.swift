import TodoInterchange
import TodoModel

/// What a sync with a calendar server brings in, as one undo step.
///
/// The sync companion (`todod-sync`) is a client like any other: it sends
/// the to-dos the server changed as iCalendar, each updating the item whose
/// UID it carries or added, and the UIDs of those the server deleted. The
/// step is an import's, so undo takes a synced change back as it takes back
/// any other; the sync then sees the list differ from what it last agreed
/// with the server and sends the undo on.
extension TodoListViewModel {
    /// What one sync call changes, in this order.
    public struct SyncChanges: Sendable {
        /// Items to give another identity, by the identity they have: the
        /// next occurrence of a repeating item takes the identity the server
        /// knows the repetition by, and the completed one a new one.
        public var renames: [(from: String, to: String)] = []
        /// iCalendar to-dos, each updating the item of its UID or added.
        public var text = ""
        /// Items to complete, by identity, as `todo.setDone` completes them
        /// (a repeating one brings its next occurrence): a calendar that
        /// marks a repeating to-do done means this occurrence.
        public var complete: [String] = []
        /// Items the server deleted, by identity.
        public var remove: [String] = []
        /// Identities left out of the call whatever it names for them:
        /// items changed since the caller read them (`outdated(_:)`).
        public var leftOut: Set<String> = []
        public init() {}
    }

    /// The identities among `expected` (each a to-do as the caller read it
    /// from an export, or "" for none) whose items no longer export so: an
    /// edit landed here since. A sync leaves those out of its call, as a
    /// server refuses a PUT whose `If-Match` is stale, and merges them on
    /// its next round; applying the server's version would overwrite the
    /// edit. The stamp of the export (`DTSTAMP`) is no difference.
    public func outdated(_ expected: [(uid: String, text: String)]) -> Set<String> {
        var outdated: Set<String> = []
        let document = exportDocument(.ical, version: "")
        let ids = itemIDs(withIdentities: expected.map(\.uid))
        for (uid, text) in expected {
            let now = ids[uid].flatMap { collection[$0] }.map { document.text(of: [$0], itemsBefore: 1, isLast: false) }
            if Self.stamplessLines(now ?? "") != Self.stamplessLines(text) { outdated.insert(ExternalIdentity.normalized(uid)) }
        }
        return outdated
    }

    /// The items `ids` as an export writes them now, each by the identity
    /// it exports with: what a sync records as agreed, read in the same
    /// turn as the change it agreed on.
    public func exportedVersions(of ids: [TodoID]) -> [(uid: String, text: String)] {
        let document = exportDocument(.ical, version: "")
        var seen: Set<TodoID> = []
        return ids.compactMap { id in
            guard seen.insert(id).inserted, let item = collection[id] else { return nil }
            return (ExternalIdentity.of(item, listID: listID), document.text(of: [item], itemsBefore: 1, isLast: false))
        }
    }

    /// A `VTODO`'s lines, unfolded, without `DTSTAMP` (an export's moment).
    private static func stamplessLines(_ text: String) -> [String]? {
        guard !text.isEmpty else { return [] }
        return (try? ContentLine.parse(text))?.filter { $0.name != "DTSTAMP" }.map(\.text)
    }

    /// The plan for a sync's changes, as one step "sync: …". A deleted
    /// item goes alone: its subtasks stay (the server deleted that one
    /// item, and a server must not delete what it did not), and so do
    /// items that depended on it. A UID no item has is left out: it is
    /// already gone. Renames come with nothing else. Carry it out with
    /// `perform(.applyImport(plan))` in the same turn.
    public func planSync(_ sync: SyncChanges) throws(TodoError) -> ImportPlan {
        let now = clock.currentTime()
        var plan =
            sync.text.isEmpty
            ? ImportPlan(ImportBatch(fields: fields), format: .ical, into: collection, listID: listID, at: now, timeZone: clock.timeZone)
            : try planImport(sync.text, format: .ical, cancelled: .keptOpen, unholdable: .skippedAlone)
        var changes = plan.step?.changes ?? []
        let leftOut = Set(sync.leftOut.map(ExternalIdentity.normalized))
        if !leftOut.isEmpty {
            let dropped = Set(
                changes.filter { change in (change.after ?? change.before).map { leftOut.contains(ExternalIdentity.normalized(ExternalIdentity.of($0, listID: listID))) } == true }
                    .map(\.id))
            changes.removeAll { dropped.contains($0.id) }
            plan.entries.removeAll { $0.id.map(dropped.contains) == true }
            plan.step = changes.isEmpty ? nil : UndoStep(description: plan.step?.description ?? "", changes: changes)
        }
        let completions = sync.complete.filter { !leftOut.contains(ExternalIdentity.normalized($0)) }
        let removals = sync.remove.filter { !leftOut.contains(ExternalIdentity.normalized($0)) }
        var after = collection
        if let step = plan.step { after.apply(step) }
        let renamed = try renaming(sync.renames)
        changes += renamed
        var completed = 0
        let named = itemIDs(withIdentities: completions + removals)
        for identity in completions {
            guard let id = named[identity], let item = after[id], !item.isDone else { continue }
            let step = try after.setDone(id, true, at: now, in: clock.timeZone)
            guard let step else { continue }
            after.apply(step)
            changes += step.changes
            completed += 1
        }
        // Never one the same call brings in (a UID changed only in case at
        // one href names one item twice): a server's update wins.
        let broughtIn = Set(plan.entries.compactMap(\.id))
        let removed = removals.compactMap { named[$0] }.filter { after[$0] != nil && !broughtIn.contains($0) }
        if !removed.isEmpty { changes += after.removingOnly(removed) }
        let updated = plan.count(.update)
        let added = plan.count(.add)
        var parts: [String] = []
        if added > 0 { parts.append("add \(Self.counted(added, "item"))") }
        if updated > 0 { parts.append("update \(Self.counted(updated, "item"))") }
        if completed > 0 { parts.append("complete \(Self.counted(completed, "item"))") }
        if !removed.isEmpty { parts.append("delete \(Self.counted(removed.count, "item"))") }
        if !renamed.isEmpty { parts.append("carry a repetition on to its next occurrence") }
        plan.step = changes.isEmpty ? nil : UndoStep(description: "sync: " + parts.joined(separator: ", "), changes: changes)
        return plan
    }

    /// The changes that give items their new identities, all looked up
    /// before any changes (one item's new identity may be another's old).
    private func renaming(_ renames: [(from: String, to: String)]) throws(TodoError) -> [ItemChange] {
        var changes: [ItemChange] = []
        for (from, to) in renames {
            guard let id = itemID(withIdentity: from), let before = collection[id] else { continue }
            var after = before
            after.externalID = to
            if after != before { changes.append(ItemChange(before: before, after: after)) }
        }
        return changes
    }

    /// The item an export gives the identity `identity` (a UID): one of
    /// this list's own by the identity derived from its id, or one that
    /// came with it.
    /// The items `identities` name, found as `itemID(withIdentity:)` finds
    /// one, with one pass over the list for all of them: a sync names
    /// thousands at once, and one pass each would hold every client up.
    public func itemIDs(withIdentities identities: some Sequence<String>) -> [String: TodoID] {
        var carried: [String: TodoID] = [:]
        collection.forEachItem { item in
            if let external = item.externalID { carried[ExternalIdentity.normalized(external)] = carried[ExternalIdentity.normalized(external)] ?? item.id }
        }
        var found: [String: TodoID] = [:]
        for identity in identities {
            let normalized = ExternalIdentity.normalized(identity)
            if let id = carried[normalized] {
                found[identity] = id
            } else if let derived = ExternalIdentity.itemID(derivedFrom: normalized, listID: listID), let item = collection[derived],
                item.externalID == nil
            {
                found[identity] = derived
            }
        }
        return found
    }

    public func itemID(withIdentity identity: String) -> TodoID? {
        let normalized = ExternalIdentity.normalized(identity)
        var found: TodoID?
        collection.forEachItem { item in
            if found == nil, let external = item.externalID, ExternalIdentity.normalized(external) == normalized { found = item.id }
        }
        if let found { return found }
        // As an import finds it: an identity an item carries comes first.
        guard let derived = ExternalIdentity.itemID(derivedFrom: normalized, listID: listID), collection[derived]?.externalID == nil else {
            return nil
        }
        return derived
    }

    private static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
