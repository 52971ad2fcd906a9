/// What other programs keep with an item and todod does not model, exactly
/// as they wrote it, so that a round trip through todod gives it back:
/// Taskwarrior's attributes no field declares (and a `depends` UUID no item
/// has); a calendar's alarms, `URL`, `LOCATION`, `X-` properties, and a
/// `RELATED-TO` no item answers.
///
/// Kept per format, because each part means something only to the program
/// that wrote it, and is written back only in that format. todod never
/// reads or judges it: a malformed property is kept as it came. What one
/// import brings is bounded (`maximumCount`, `maximumBytes`), because every
/// edit copies an item into its undo step; an item imported from both
/// Taskwarrior and a calendar holds at most twice that.
public struct ForeignFields: Hashable, Sendable, Codable {
    public static let maximumCount = 1_000
    public static let maximumBytes = 256 * 1024

    /// Taskwarrior attributes by name, each value the JSON text it came as:
    /// `"20270101T000000Z"`, `3`, `["a","b"]`.
    public var taskwarrior: [String: String]
    /// The to-do's iCalendar content lines, unfolded, in order; a component
    /// inside it (`VALARM`) is its lines from `BEGIN` to `END`.
    public var icalendar: [String]

    public init(taskwarrior: [String: String] = [:], icalendar: [String] = []) {
        self.taskwarrior = taskwarrior
        self.icalendar = icalendar
    }

    public var isEmpty: Bool { taskwarrior.isEmpty && icalendar.isEmpty }

    /// How many properties are kept: attributes, content lines.
    public var count: Int { taskwarrior.count + icalendar.count }

    /// How many bytes of text are kept.
    public var byteCount: Int {
        taskwarrior.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count } + icalendar.reduce(0) { $0 + $1.utf8.count }
    }

    private enum CodingKeys: String, CodingKey {
        case taskwarrior, icalendar
    }

    // Empty parts are left out of the JSON, which keeps undo steps small.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        taskwarrior = try container.decodeIfPresent([String: String].self, forKey: .taskwarrior) ?? [:]
        icalendar = try container.decodeIfPresent([String].self, forKey: .icalendar) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !taskwarrior.isEmpty { try container.encode(taskwarrior, forKey: .taskwarrior) }
        if !icalendar.isEmpty { try container.encode(icalendar, forKey: .icalendar) }
    }
}
