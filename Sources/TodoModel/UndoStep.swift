/// One user command, recorded so it can be undone and redone.
///
/// A step is data, not code: for every item it touched, the item before and
/// after. Undo writes the "before" states back (re-inserting a deleted item
/// with its own id), redo writes the "after" states. So any command, and any
/// bulk command as one step, is undone the same way, and steps can be stored
/// and survive a restart.
///
/// A step read back from the store may keep its changes unread until they
/// are needed (`init(description:storedChanges:)`): the history can hold as
/// many items as the list (a bulk command's step holds every item it
/// touched), and only the newest step's description is shown. Reading all of
/// them took half of todod's start-up.
public struct UndoStep: Hashable, Sendable, Codable {
    /// What the step did, as a person would say it: `add “buy milk”`.
    public var description: String
    /// The instance that made it, when several share the list: undo takes
    /// back the list's last step, whoever made it, and says whose it is.
    public var origin: String?
    private var body: Body

    private enum Body: Sendable {
        case changes([ItemChange])
        case stored(StoredChanges)
    }

    public init(description: String, changes: [ItemChange]) {
        self.description = description
        self.body = .changes(changes)
    }

    /// A stored step whose changes `read` produces the first time they are
    /// needed. If `read` fails the step has no changes and says why in
    /// `readFailure`, so that undoing it is refused rather than doing nothing.
    public init(description: String, storedChanges read: @escaping @Sendable () throws -> [ItemChange]) {
        self.description = description
        self.body = .stored(StoredChanges(read: read))
    }

    /// Every item the step touched, before and after.
    public var changes: [ItemChange] {
        get {
            switch body {
            case .changes(let changes): changes
            case .stored(let stored): (try? stored.result.get()) ?? []
            }
        }
        set { body = .changes(newValue) }
    }

    /// Why a stored step's changes could not be read; nil when they can.
    public var readFailure: String? {
        guard case .stored(let stored) = body, case .failure(let error) = stored.result else { return nil }
        return String(describing: error)
    }

    public static func == (a: UndoStep, b: UndoStep) -> Bool {
        a.description == b.description && a.origin == b.origin && a.changes == b.changes && a.readFailure == b.readFailure
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
        hasher.combine(changes)
    }

    private enum CodingKeys: String, CodingKey {
        case changes, description, origin
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            description: try container.decode(String.self, forKey: .description),
            changes: try container.decode([ItemChange].self, forKey: .changes))
        origin = try container.decodeIfPresent(String.self, forKey: .origin)
    }

    public func encode(to encoder: any Encoder) throws {
        if let readFailure {
            // Never written back as a step with no changes: the damage would be lost.
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: readFailure))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(changes, forKey: .changes)
        try container.encode(description, forKey: .description)
        try container.encodeIfPresent(origin, forKey: .origin)
    }

    /// Several steps made one after the other, as one step: each item's
    /// state before the first and after the last (items added and deleted
    /// within it leave no trace). Nil when there is no step or, in sum, no change.
    public init?(merging steps: [UndoStep]) {
        guard steps.count > 1 else {
            guard let only = steps.first else { return nil }
            self = only
            return
        }
        var order: [TodoID] = []
        var merged: [TodoID: ItemChange] = [:]
        for change in steps.flatMap(\.changes) {
            if let earlier = merged[change.id] {
                merged[change.id] = ItemChange(before: earlier.before, after: change.after)
            } else {
                order.append(change.id)
                merged[change.id] = change
            }
        }
        let changes = order.compactMap { merged[$0] }.filter { $0.before != $0.after }
        guard !changes.isEmpty else { return nil }
        let descriptions = steps.map(\.description)
        let description =
            descriptions.count <= 3
            ? descriptions.joined(separator: ", ")
            : "\(descriptions[0]) and \(descriptions.count - 1) more changes"
        self.init(description: description, changes: changes)
    }

    /// The step that reverses this one (a stored step's, read when needed,
    /// and unreadable when it is).
    public var inverse: UndoStep {
        var inverse =
            switch body {
            case .changes(let changes): UndoStep(description: description, changes: changes.reversed().map(\.inverse))
            case .stored(let stored): UndoStep(description: description) { try stored.result.get().reversed().map(\.inverse) }
            }
        inverse.origin = origin
        return inverse
    }
}

/// One item's state before and after a command (`nil`: did not exist).
public struct ItemChange: Hashable, Sendable, Codable {
    public var before: TodoItem?
    public var after: TodoItem?

    public init(before: TodoItem?, after: TodoItem?) {
        self.before = before
        self.after = after
    }

    public var inverse: ItemChange { ItemChange(before: after, after: before) }

    public var id: TodoID { (after ?? before)!.id }
}
