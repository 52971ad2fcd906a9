import FoundationEssentials

/// One to-do item as the store keeps it.
///
/// This is the model: plain facts, no wording. How an item is shown (its row
/// text, the counter it contributes to) is decided by the view models.
public struct TodoItem: Identifiable, Hashable, Sendable {
    /// Every edit copies an item into its undo step, so its size is bounded.
    public static let maximumTags = 50
    public static let maximumNotes = 100

    public let id: TodoID
    /// The other fields, in a box shared by the copies of this item until one
    /// of them changes (copy on write). An edit passes an item through the
    /// collection, its undo step, each view's placement, the row and the
    /// store: about 25 copies, each of which retained every string, set and
    /// dictionary of the item (12,000 instructions of a durable add). Now a
    /// copy retains the box.
    private var box: Box

    public var title: String {
        get { box.fields.title }
        _modify { yield &fields.title }
    }
    public var isDone: Bool {
        get { box.fields.isDone }
        _modify { yield &fields.isDone }
    }
    public var createdAt: Date {
        get { box.fields.createdAt }
        _modify { yield &fields.createdAt }
    }
    public var updatedAt: Date {
        get { box.fields.updatedAt }
        _modify { yield &fields.updatedAt }
    }
    /// When the item was last marked done; `nil` while it is active.
    public var completedAt: Date? {
        get { box.fields.completedAt }
        _modify { yield &fields.completedAt }
    }
    public var due: DueDate? {
        get { box.fields.due }
        _modify { yield &fields.due }
    }
    /// Tags as written; two tags that differ only in case are the same tag
    /// (`ItemFields.adding(tag:)` keeps the first spelling).
    public var tags: Set<String> {
        get { box.fields.tags }
        _modify { yield &fields.tags }
    }
    /// A dotted path such as `home.garden`; a query for `home` matches it.
    public var project: String? {
        get { box.fields.project }
        _modify { yield &fields.project }
    }
    public var priority: Priority? {
        get { box.fields.priority }
        _modify { yield &fields.priority }
    }
    /// Oldest first. Removed one at a time, by position.
    public var notes: [TodoNote] {
        get { box.fields.notes }
        _modify { yield &fields.notes }
    }
    /// Hidden from the default views until this day begins (or this moment comes).
    public var wait: DueDate? {
        get { box.fields.wait }
        _modify { yield &fields.wait }
    }
    /// When set, completing the item brings it back due again (see `Recurrence`).
    public var recurrence: Recurrence? {
        get { box.fields.recurrence }
        _modify { yield &fields.recurrence }
    }
    /// The declared fields' values (`scheduled`, `until`, those todod.conf
    /// declares), by field name. A value whose declaration was removed stays
    /// (an orphan, as Taskwarrior calls it): shown raw and exported as it came.
    public var values: [String: FieldValue] {
        get { box.fields.values }
        _modify { yield &fields.values }
    }
    /// When each field last changed, for fields changed since the item was
    /// created (`todoctl show` says it); a field missing here has not changed.
    public var fieldChangedAt: [ItemField: Date] {
        get { box.fields.fieldChangedAt }
        _modify { yield &fields.fieldChangedAt }
    }
    /// Who the item is elsewhere: the Taskwarrior UUID or iCalendar UID it
    /// was imported with, so that importing the same file again updates it
    /// instead of adding it twice. Nil for items made here (their exports
    /// carry an identity derived from the list and the id; see `ExternalIdentity`).
    public var externalID: String? {
        get { box.fields.externalID }
        _modify { yield &fields.externalID }
    }
    /// What the programs it was imported from keep and todod does not model,
    /// written back when it is exported to them (see `ForeignFields`).
    public var foreign: ForeignFields {
        get { box.fields.foreign }
        _modify { yield &fields.foreign }
    }

    public init(
        id: TodoID,
        title: String,
        isDone: Bool = false,
        createdAt: Date,
        updatedAt: Date? = nil,
        completedAt: Date? = nil,
        due: DueDate? = nil,
        tags: Set<String> = [],
        project: String? = nil,
        priority: Priority? = nil,
        notes: [TodoNote] = [],
        wait: DueDate? = nil,
        recurrence: Recurrence? = nil,
        values: [String: FieldValue] = [:],
        fieldChangedAt: [ItemField: Date] = [:],
        externalID: String? = nil,
        foreign: ForeignFields = ForeignFields()
    ) {
        self.id = id
        self.box = Box(
            Fields(
                title: title, isDone: isDone, createdAt: createdAt, updatedAt: updatedAt ?? createdAt, completedAt: completedAt,
                due: due, tags: tags, project: project, priority: priority, notes: notes, wait: wait, recurrence: recurrence,
                values: values, fieldChangedAt: fieldChangedAt, externalID: externalID, foreign: foreign))
    }

    /// The fields but the id, as they are stored in the box.
    private struct Fields: Hashable {
        var title: String
        var isDone: Bool
        var createdAt: Date
        var updatedAt: Date
        var completedAt: Date?
        var due: DueDate?
        var tags: Set<String>
        var project: String?
        var priority: Priority?
        var notes: [TodoNote]
        var wait: DueDate?
        var recurrence: Recurrence?
        var values: [String: FieldValue]
        var fieldChangedAt: [ItemField: Date]
        var externalID: String?
        var foreign: ForeignFields
    }

    /// `@unchecked` because its `fields` are a `var`: they are only written
    /// through `TodoItem.fields`, which first gives the item a box of its
    /// own unless no other item (on any thread) holds this one, so a box
    /// that is shared is never written.
    private final class Box: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// The fields, for writing: copied into a new box first when another
    /// item shares this one.
    private var fields: Fields {
        get { box.fields }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            yield &box.fields
        }
    }

    public static func == (lhs: TodoItem, rhs: TodoItem) -> Bool {
        lhs.id == rhs.id && (lhs.box === rhs.box || lhs.box.fields == rhs.box.fields)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(box.fields)
    }

    /// Not done and past due, at `now` in `timeZone`.
    public func isOverdue(at now: Date, in timeZone: TimeZone) -> Bool {
        guard !isDone, let due else { return false }
        switch due {
        // A due day is over once today is a later day: day numbers, no calendar.
        case .day(let day): return CalendarDay.dayNumber(of: now, in: timeZone) > day.dayNumber
        case .moment(let date): return now >= date
        }
    }

    /// Not done, with a wait date still ahead at `now`: hidden from the default views.
    public func isWaiting(at now: Date, in timeZone: TimeZone) -> Bool {
        guard !isDone, let wait else { return false }
        return now < wait.sortInstant(in: timeZone)
    }

    /// Marks the item done or active at `date`, keeping `completedAt` in step.
    /// Returns `false` when the item already was in that state (nothing to do).
    public mutating func setDone(_ done: Bool, at date: Date) -> Bool {
        guard done != isDone else { return false }
        isDone = done
        completedAt = done ? date : nil
        updatedAt = date
        return true
    }

    /// The item's tag equal to `tag` ignoring case, as it is written on the item.
    public func existingTag(_ tag: String) -> String? {
        if tags.contains(tag) { return tag }
        let folded = tag.lowercased()
        return tags.first { $0.lowercased() == folded }
    }

    /// Tags in the order they are shown and stored: A to Z ignoring case.
    public var sortedTags: [String] {
        // Every row of every view asks (a view of 100,000 items, a fifth of
        // its rows' time went here): most items have two tags or fewer, which
        // need at most one comparison and no generic copy of the set.
        func precedes(_ a: String, _ b: String) -> Bool { (NameCase.lowercased(a), a) < (NameCase.lowercased(b), b) }
        switch tags.count {
        case 0: return []
        case 1: return [tags.first!]
        case 2:
            var pair = tags.makeIterator()
            let (a, b) = (pair.next()!, pair.next()!)
            return precedes(a, b) ? [a, b] : [b, a]
        default: return tags.sorted(by: precedes)
        }
    }
}

extension TodoItem: QueryableItem {
    public var isRecurring: Bool { recurrence != nil }
}

/// One note on an item: a line of text and when it was added.
public struct TodoNote: Hashable, Sendable, Codable {
    public var text: String
    public var addedAt: Date

    public init(text: String, addedAt: Date) {
        self.text = text
        self.addedAt = addedAt
    }
}

/// The fields of an item a command can change, by the names the protocol
/// and `todoctl show` use: the item's own, and each declared field by its
/// name (`ItemField(rawValue: "scheduled")`).
public struct ItemField: RawRepresentable, Hashable, Sendable, Codable, CodingKeyRepresentable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let title = ItemField(rawValue: "title")
    public static let done = ItemField(rawValue: "done")
    public static let due = ItemField(rawValue: "due")
    public static let tags = ItemField(rawValue: "tags")
    public static let project = ItemField(rawValue: "project")
    public static let priority = ItemField(rawValue: "priority")
    public static let notes = ItemField(rawValue: "notes")
    public static let wait = ItemField(rawValue: "wait")
    public static let recurrence = ItemField(rawValue: "recurrence")

    /// The item's own fields, in the order `todoctl show` lists them.
    public static let itemFields: [ItemField] = OwnField.all.map(\.field)

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
