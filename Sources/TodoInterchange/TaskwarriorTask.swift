import CanonicalJSON
import TodoModel

/// One task as `task export` writes it. Every field is optional here so
/// that a missing one is reported by name (`TaskwarriorFormat.read`) rather
/// than as a decoding error. The attributes of declared fields (`scheduled`,
/// `until`, `depends`, `parenttask`, UDAs todod.conf declares) are in
/// `fieldAttributes`; the others (`start`, UDAs todod.conf does not
/// declare) are kept as they came, in `foreign`.
struct TaskwarriorTask: Codable {
    /// The attributes of the item's own fields, which todod reads or writes
    /// itself; any other is a declared field's or foreign. `id` and `urgency`
    /// are Taskwarrior's own, worked out anew by `task` on every export, and
    /// `imask` numbers an occurrence todod merges.
    ///
    /// Not the declared fields' (`scheduled`, `until`): which those are
    /// depends on the catalog an import is given, and an item imported
    /// before they were declared keeps them in `foreign`, which must still
    /// go back to Taskwarrior. A declared field never takes one of these.
    static let modelledKeys = Set(OwnField.all.flatMap(\.taskwarriorNames) + OwnField.taskwarriorItemNames)

    /// The modelled attributes that make a task an occurrence of a
    /// recurring one. A done occurrence is a done item of its own, which
    /// todod does not repeat; these are kept as they came for it
    /// (`TaskwarriorFormat`), so that it goes back to Taskwarrior as the
    /// occurrence of its template it was, and written back while it is done.
    /// Taskwarrior's own names of a repetition (`OwnField.recurrence`),
    /// without todod's `todod_recur`.
    static let occurrenceKeys = Set(OwnField.recurrence.taskwarriorNames).subtracting(["todod_recur"])

    var id: Int?
    var uuid: String?
    var description: String?
    var status: String?
    var entry: String?
    var modified: String?
    var end: String?
    var due: String?
    var wait: String?
    var tags: [String]?
    var project: String?
    var priority: String?
    var annotations: [Annotation]?
    var recur: String?
    var rtype: String?
    var mask: String?
    /// The parent of a recurring task's occurrence.
    var parent: String?
    /// todod's own text of a repetition Taskwarrior cannot say ("weekly from completion").
    var todod_recur: String?

    /// The attributes of declared fields, by attribute name: as they came
    /// when read (`TaskwarriorFormat` reads each by its field's kind), as
    /// the values' kinds write them when written. Not part of the `Codable`
    /// form (read and written beside it).
    var fieldAttributes: [String: JSONValue] = [:]
    /// The other attributes not in `modelledKeys`, each value as JSON text;
    /// not part of the `Codable` form (read and written beside it).
    var foreign: [String: String] = [:]
    /// Attributes whose value todod cannot hold even as it came (a number
    /// past 1e308): left out, and said.
    var unreadable: [String] = []

    private enum CodingKeys: String, CodingKey {
        case id, uuid, description, status, entry, modified, end, due, wait, tags, project, priority, annotations
        case recur, rtype, mask, parent, todod_recur
    }

    /// A foreign attribute's name as a key.
    private struct ForeignKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The modelled attributes, the declared fields' and then the foreign
    /// ones as they came (a modelled or declared one of the same name wins:
    /// a value set in todod replaces what Taskwarrior wrote before the
    /// field was declared); the encoder sorts the keys.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(uuid, forKey: .uuid)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(entry, forKey: .entry)
        try container.encodeIfPresent(modified, forKey: .modified)
        try container.encodeIfPresent(end, forKey: .end)
        try container.encodeIfPresent(due, forKey: .due)
        try container.encodeIfPresent(wait, forKey: .wait)
        try container.encodeIfPresent(tags, forKey: .tags)
        try container.encodeIfPresent(project, forKey: .project)
        try container.encodeIfPresent(priority, forKey: .priority)
        try container.encodeIfPresent(annotations, forKey: .annotations)
        try container.encodeIfPresent(recur, forKey: .recur)
        try container.encodeIfPresent(rtype, forKey: .rtype)
        try container.encodeIfPresent(mask, forKey: .mask)
        try container.encodeIfPresent(parent, forKey: .parent)
        try container.encodeIfPresent(todod_recur, forKey: .todod_recur)
        var others = encoder.container(keyedBy: ForeignKey.self)
        for (key, value) in fieldAttributes where !Self.modelledKeys.contains(key) {
            try others.encode(value, forKey: ForeignKey(stringValue: key))
        }
        // A priority todod has no letter for is kept (`TaskwarriorFormat`)
        // and goes back while todod has none of its own.
        // So is what made a done task an occurrence (`occurrenceKeys`), while
        // todod does not repeat it.
        for (key, text) in foreign
        where fieldAttributes[key] == nil
            && (!Self.modelledKeys.contains(key) || key == "priority" && priority == nil
                || Self.occurrenceKeys.contains(key) && recur == nil && parent == nil)
        {
            if let value = JSONValue(text: text) { try others.encode(value, forKey: ForeignKey(stringValue: key)) }
        }
    }

    struct Annotation: Codable {
        var entry: String?
        var description: String?
    }
}
