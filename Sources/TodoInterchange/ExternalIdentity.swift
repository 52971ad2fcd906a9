import TodoModel

/// The identity an exported item carries, so that importing the export
/// again (here or after a trip through another tool) updates the item
/// instead of adding a copy.
///
/// An imported item keeps the identity it came with (`TodoItem.externalID`).
/// An item made here has none stored: its identity is derived from the
/// list's own UUID and the item's id — the UUID's first 24 characters, then
/// the id in 12 hex digits — so it is a valid UUID (Taskwarrior insists),
/// unique across lists, and an import can tell it names an item of this list.
public enum ExternalIdentity {
    /// The identity an export gives `item`.
    public static func of(_ item: TodoItem, listID: String) -> String {
        item.externalID ?? derived(item.id, listID: listID)
    }

    /// A UUID for `item`: its own identity when that is a UUID, else the derived one.
    public static func uuid(of item: TodoItem, listID: String) -> String {
        if let external = item.externalID, isUUID(external) { return external.lowercased() }
        return derived(item.id, listID: listID)
    }

    /// The id of the item of this list whose derived identity `identity` is; nil for any other.
    public static func itemID(derivedFrom identity: String, listID: String) -> TodoID? {
        let prefix = listPrefix(listID)
        guard identity.count == prefix.count + 12, identity.lowercased().hasPrefix(prefix),
            let id = Int64(identity.suffix(12), radix: 16), id > 0
        else { return nil }
        return TodoID(id)
    }

    static func derived(_ id: TodoID, listID: String) -> String {
        let hex = String(id.rawValue, radix: 16)
        return listPrefix(listID) + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    private static func listPrefix(_ listID: String) -> String {
        String(listID.lowercased().prefix(24))
    }

    /// An identity as it is stored and compared: a UUID in lower case (an
    /// iCalendar UID may be one in upper case, which Taskwarrior writes in
    /// lower case), anything else as it is.
    public static func normalized(_ identity: String) -> String {
        isUUID(identity) ? identity.lowercased() : identity
    }

    /// `8-4-4-4-12` hex digits.
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
