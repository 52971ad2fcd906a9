import FoundationEssentials
import TodoModel

/// An export in one format, written in parts: todod sends a long export
/// as several replies (each reply is bounded), so the text of a part must
/// join with the parts before it into one valid document.
public struct ExportDocument: Sendable {
    public var format: InterchangeFormat
    public var listID: String
    public var timeZone: TimeZone
    /// When the export was made (iCalendar stamps each to-do with it).
    public var now: Date
    /// The version written in iCalendar's PRODID.
    public var version: String
    /// The declared fields, whose values are written where each says (a
    /// value whose field is gone, under its own name).
    public var fields: FieldCatalog
    /// The whole list the items are of, whatever part of it is exported:
    /// a link (`depends`, `parent`) is written as the identity of the item
    /// it names (its Taskwarrior UUID, its calendar UID), which only the
    /// list knows, and a todo.txt line names the items that depend on it
    /// (`TodoTxtFormat`). Without it, links name their targets by the
    /// identity derived from their ids (right for items made in this list,
    /// not for imported ones), and todo.txt lines carry no links.
    public var list: TodoCollection?

    public init(
        format: InterchangeFormat, listID: String, timeZone: TimeZone, now: Date, version: String, fields: FieldCatalog = .builtIn,
        list: TodoCollection? = nil
    ) {
        self.format = format
        self.listID = listID
        self.timeZone = timeZone
        self.now = now
        self.version = version
        self.fields = fields
        self.list = list
    }

    /// The text of `items`, which follow `itemsBefore` items written by
    /// earlier parts; the document's opening when `itemsBefore` is 0 and
    /// its close when `isLast`.
    public func text(of items: some Collection<TodoItem>, itemsBefore: Int, isLast: Bool) -> String {
        var text = ""
        if itemsBefore == 0 { text += header }
        let links = LinkNames(listID: listID, list: list)
        for (index, item) in items.enumerated() {
            switch format {
            case .taskwarrior:
                if itemsBefore + index > 0 { text += ",\n" }
                text += TaskwarriorFormat.entry(item, listID: listID, timeZone: timeZone, fields: fields, links: links)
            case .todotxt:
                text += TodoTxtFormat.entry(item, timeZone: timeZone, fields: fields, links: links)
            case .ical:
                text += ICalendarFormat.entry(item, listID: listID, now: now, timeZone: timeZone, fields: fields, links: links)
            }
        }
        if isLast { text += footer(empty: itemsBefore + items.count == 0) }
        return text
    }

    private var header: String {
        switch format {
        case .taskwarrior: "[\n"
        case .todotxt: ""
        case .ical: ICalendarFormat.header(version: version)
        }
    }

    private func footer(empty: Bool) -> String {
        switch format {
        case .taskwarrior: empty ? "]\n" : "\n]\n"
        case .todotxt: ""
        case .ical: ICalendarFormat.footer
        }
    }
}

extension InterchangeFormat {
    /// Reads `text` in this format; dates without a zone are in `timeZone`,
    /// and the values of `fields` are read where each field says.
    public func read(
        _ text: String, timeZone: TimeZone, fields: FieldCatalog = .builtIn, cancelled: ICalendarFormat.Cancelled = .skipped,
        unholdable: ICalendarFormat.Unholdable = .refusesAll
    ) throws(ImportProblem) -> ImportBatch {
        // A byte order mark some editors write is no part of the text.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        return switch self {
        case .taskwarrior: try TaskwarriorFormat.read(text, timeZone: timeZone, fields: fields)
        case .todotxt: try TodoTxtFormat.read(text, timeZone: timeZone, fields: fields)
        case .ical: try ICalendarFormat.read(text, timeZone: timeZone, fields: fields, cancelled: cancelled, unholdable: unholdable)
        }
    }
}
