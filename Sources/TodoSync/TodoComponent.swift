import FoundationEssentials
import TodoInterchange

/// One `VTODO` as a sync compares and merges it: its properties, unfolded,
/// in the order they came, and the components nested in it (`VALARM`)
/// whole. Nothing is read into todod's model here: a property todod does
/// not know is a property like any other, merged and written back as it
/// came.
public struct TodoComponent: Hashable, Sendable {
    public struct Property: Hashable, Sendable {
        /// The name in capitals (`DUE`, `X-MOZ-GENERATION`).
        public var name: String
        public var parameters: [String: String]
        public var value: String
        /// The whole line, unfolded, as it came.
        public var line: String

        public init(_ line: ContentLine) {
            name = line.name
            parameters = line.parameters
            value = line.value
            self.line = line.text
        }

        /// The line with its name and parameters in one spelling, for
        /// comparing: `DUE;VALUE=DATE:20261212` whatever the case or the
        /// order of the parameters.
        var normalized: String {
            let parameters = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return ([name] + parameters).joined(separator: ";") + ":" + value
        }
    }

    public var properties: [Property]
    /// Each nested component's lines, unfolded, `BEGIN:` to `END:`.
    public var components: [[String]]

    public init(properties: [Property], components: [[String]]) {
        self.properties = properties
        self.components = components
    }

    /// The to-do between `BEGIN:VTODO` and `END:VTODO` (both left out of
    /// `lines`).
    init(lines: ArraySlice<ContentLine>) {
        var properties: [Property] = []
        var components: [[String]] = []
        var nested: [String] = []
        var depth = 0
        for line in lines {
            if line.name == "BEGIN" { depth += 1 }
            if depth > 0 {
                nested.append(line.text)
                if line.name == "END" {
                    depth -= 1
                    if depth == 0 {
                        components.append(nested)
                        nested = []
                    }
                }
            } else {
                properties.append(Property(line))
            }
        }
        self.properties = properties
        self.components = components
    }

    /// The first property named `name`.
    public func first(_ name: String) -> Property? { properties.first { $0.name == name } }

    public var uid: String? { first("UID").map { ContentLine.unescaped($0.value) } }

    /// When the to-do last changed: `LAST-MODIFIED`, else `DTSTAMP`.
    public var lastModified: Date? {
        (first("LAST-MODIFIED") ?? first("DTSTAMP")).flatMap { CalendarInstant.utc($0.value) }
    }

    /// Sets the property `name` to one line, `line`, where the first one was
    /// (or at the end).
    public mutating func set(_ name: String, line: String) {
        guard let parsed = try? ContentLine.parse(line).first else { return }
        let index = properties.firstIndex { $0.name == name } ?? properties.endIndex
        properties.removeAll { $0.name == name }
        properties.insert(Property(parsed), at: min(index, properties.endIndex))
    }

    /// `BEGIN:VTODO` to `END:VTODO`, folded, each line ending in CRLF.
    public var text: String {
        (["BEGIN:VTODO"] + properties.map(\.line) + components.flatMap { $0 } + ["END:VTODO"]).map(ContentLine.folded).joined()
    }
}

/// `20261212T093000Z` read as an instant.
enum CalendarInstant {
    static func utc(_ text: String) -> Date? {
        let digits = Array(text.utf8)
        guard digits.count == 16, digits[8] == UInt8(ascii: "T"), digits[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: digits[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), let hour = number(9..<11),
            let minute = number(11..<13), let second = number(13..<15)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }

    static func compact(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ number: Int?) -> String { let number = number ?? 0; return number < 10 ? "0\(number)" : "\(number)" }
        return "\(parts.year ?? 1970)" + two(parts.month) + two(parts.day) + "T" + two(parts.hour) + two(parts.minute) + two(parts.second) + "Z"
    }
}
