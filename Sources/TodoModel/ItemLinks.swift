/// Who links to whom: each item's children (`parent`) and dependents
/// (`depends`), the reverse of what items hold, kept beside the collection
/// so that "is this item blocking?", "what are its subtasks?" and "what
/// must a removal take along?" cost a lookup, not a scan of every item.
///
/// Links to missing items, and cycles, can come in from other programs'
/// files; nothing here assumes they are absent: walks stop where they
/// would go round.
public struct ItemLinks: Sendable {
    /// How deep a tree goes: an item further down (another program's file
    /// may hold one) is shown at the top level, and a command that would put
    /// one there is refused. Bounded so that finding an item's place costs
    /// a few dozen steps, whatever a file holds.
    public static let maximumDepth = 32

    private var children: [TodoID: Set<TodoID>] = [:]
    private var dependents: [TodoID: Set<TodoID>] = [:]

    public init() {}

    mutating func insert(_ item: TodoItem) {
        if let parent = item.parent { children[parent, default: []].insert(item.id) }
        for target in item.depends { dependents[target, default: []].insert(item.id) }
    }

    mutating func remove(_ item: TodoItem) {
        if let parent = item.parent { Self.remove(item.id, from: parent, in: &children) }
        for target in item.depends { Self.remove(item.id, from: target, in: &dependents) }
    }

    private static func remove(_ id: TodoID, from key: TodoID, in table: inout [TodoID: Set<TodoID>]) {
        guard var set = table[key] else { return }
        set.remove(id)
        table[key] = set.isEmpty ? nil : set
    }

    /// The items whose `parent` is `id`.
    public func children(of id: TodoID) -> Set<TodoID> { children[id] ?? [] }

    /// The items whose `depends` names `id`.
    public func dependents(of id: TodoID) -> Set<TodoID> { dependents[id] ?? [] }

    /// Whether any item has children or dependencies at all (most lists
    /// have none, and views then skip every tree step).
    public var isEmpty: Bool { children.isEmpty && dependents.isEmpty }
}
