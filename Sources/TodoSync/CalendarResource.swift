import TodoInterchange

/// One calendar object resource as a CalDAV server holds it (RFC 4791
/// §4.1): a `VCALENDAR` with one to-do, and what came with it.
///
/// Only the to-do is todod's to merge. The rest — time zones, changed
/// occurrences of a repeating to-do (a `VTODO` with `RECURRENCE-ID`), the
/// calendar's own properties — is kept as it came and written back around
/// the merged to-do, so that a sync never drops what another program wrote.
public struct CalendarResource: Hashable, Sendable {
    /// The to-do: the `VTODO` without `RECURRENCE-ID`.
    public var todo: TodoComponent
    /// The calendar's properties but `PRODID` and `VERSION`, unfolded.
    public var calendarProperties: [String]
    /// The other components, each `BEGIN:` to `END:`, unfolded.
    public var companions: [[String]]
    /// Who wrote it: the `PRODID` (`-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN`).
    public var productID: String?

    public init(todo: TodoComponent, calendarProperties: [String] = [], companions: [[String]] = [], productID: String? = nil) {
        self.todo = todo
        self.calendarProperties = calendarProperties
        self.companions = companions
        self.productID = productID
    }

    /// Reads a resource. It must be a `VCALENDAR` holding one to-do with a
    /// `UID` (and perhaps its changed occurrences); anything else (an
    /// event, two to-dos, a broken line) is a `ResourceProblem` naming what
    /// is wrong, and the sync leaves that resource alone on the server.
    public init(parsing text: String) throws(ResourceProblem) {
        let lines: [ContentLine]
        do { lines = try ContentLine.parse(text) } catch { throw ResourceProblem("\(error.location): \(error.message)") }
        guard lines.first?.name == "BEGIN", lines.first?.value.uppercased() == "VCALENDAR" else {
            throw ResourceProblem("it is not an iCalendar object (no BEGIN:VCALENDAR)")
        }
        var todos: [TodoComponent] = []
        var calendarProperties: [String] = []
        var companions: [[String]] = []
        var productID: String?
        var index = 1
        while index < lines.count {
            let line = lines[index]
            if line.name == "END", line.value.uppercased() == "VCALENDAR" { break }
            guard line.name == "BEGIN" else {
                switch line.name {
                case "PRODID": productID = ContentLine.unescaped(line.value)
                case "VERSION": break
                default: calendarProperties.append(line.text)
                }
                index += 1
                continue
            }
            let kind = line.value.uppercased()
            guard let end = Self.end(of: kind, in: lines, from: index) else { throw ResourceProblem("BEGIN:\(kind) has no END:\(kind)") }
            let component = TodoComponent(lines: lines[(index + 1)..<end])
            if kind == "VTODO", component.first("RECURRENCE-ID") == nil {
                todos.append(component)
            } else {
                companions.append(lines[index...end].map(\.text))
            }
            index = end + 1
        }
        guard todos.count == 1 else {
            throw ResourceProblem(todos.isEmpty ? "it holds no to-do (VTODO)" : "it holds \(todos.count) to-dos; one resource holds one")
        }
        guard let uid = todos[0].uid, !uid.isEmpty else { throw ResourceProblem("its to-do has no UID") }
        self.init(todo: todos[0], calendarProperties: calendarProperties, companions: companions, productID: productID)
    }

    /// The resource as a server stores it, written by `productID`.
    public func text(productID: String) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + ContentLine.escaped(productID)]
        lines += calendarProperties
        lines += companions.flatMap { $0 }
        return lines.map(ContentLine.folded).joined() + todo.text + ContentLine.folded("END:VCALENDAR")
    }

    /// The index of the line that ends the component `kind` begun at `start`.
    private static func end(of kind: String, in lines: [ContentLine], from start: Int) -> Int? {
        var depth = 0
        for index in start..<lines.count {
            let line = lines[index]
            if line.name == "BEGIN" { depth += 1 }
            if line.name == "END" {
                depth -= 1
                if depth == 0 { return line.value.uppercased() == kind ? index : nil }
            }
        }
        return nil
    }
}

/// Why a resource cannot be synced, said so that `sync status` can name it.
public struct ResourceProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
