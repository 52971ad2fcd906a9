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
    /// The plan for `text` (iCalendar, possibly empty) and the deletion of
    /// the items whose identities `removed` names. A deleted item goes
    /// alone: its subtasks stay (the server deleted that one item, and a
    /// server must not delete what it did not), and so do items that
    /// depended on it. A UID no item has is left out: it is already gone.
    /// Carry it out with `perform(.applyImport(plan))` in the same turn.
    public func planSync(_ text: String, removing removed: [String]) throws(TodoError) -> ImportPlan {
        var plan =
            text.isEmpty
            ? ImportPlan(ImportBatch(fields: fields), format: .ical, into: collection, listID: listID, at: clock.currentTime(), timeZone: clock.timeZone)
            : try planImport(text, format: .ical)
        let ids = removed.compactMap(itemID(withIdentity:))
        var changes = plan.step?.changes ?? []
        if !ids.isEmpty {
            var after = collection
            if let step = plan.step { after.apply(step) }
            changes += after.removingOnly(ids)
        }
        let updated = plan.count(.update)
        let added = plan.count(.add)
        var parts: [String] = []
        if added > 0 { parts.append("add \(Self.counted(added, "item"))") }
        if updated > 0 { parts.append("update \(Self.counted(updated, "item"))") }
        if !ids.isEmpty { parts.append("delete \(Self.counted(ids.count, "item"))") }
        plan.step = changes.isEmpty ? nil : UndoStep(description: "sync: " + parts.joined(separator: ", "), changes: changes)
        return plan
    }

    /// The item an export gives the identity `identity` (a UID): one of
    /// this list's own by the identity derived from its id, or one that
    /// came with it.
    public func itemID(withIdentity identity: String) -> TodoID? {
        let normalized = ExternalIdentity.normalized(identity)
        if let derived = ExternalIdentity.itemID(derivedFrom: normalized, listID: listID), collection[derived] != nil {
            return derived
        }
        var found: TodoID?
        collection.forEachItem { item in
            if found == nil, let external = item.externalID, ExternalIdentity.normalized(external) == normalized { found = item.id }
        }
        return found
    }

    private static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
