import FoundationEssentials
import Glibc
import TodoProtocol
import TodoViewState

/// Prints view-model values for people or for programs. It lays them out and
/// adds nothing of its own: the counter's wording, the row texts, the empty
/// text and the order all come from the daemon's view model.
enum ListRendering {
    /// The list as lines: one row each (`  3  [x] buy milk  (due tomorrow)`),
    /// the empty text when there are no rows, the counter, then reminders.
    static func lines(_ state: TodoListState, style: TerminalStyle = .plain) -> [String] {
        listLines(state, style: style) + reminderLines(state, style: style)
    }

    /// A listing on standard output, the way `ls` prints it. The reminders
    /// follow the list on a terminal; otherwise they go to standard error,
    /// so a script that parses the listing reads the list and nothing else.
    static func printListing(_ state: TodoListState, header: String, style: TerminalStyle) {
        print(style.quiet(header))
        listLines(state, style: style).forEach { print($0) }
        let reminders = reminderLines(state, style: style)
        if isatty(STDOUT_FILENO) == 1 {
            reminders.forEach { print($0) }
        } else if !reminders.isEmpty {
            StandardStreams.write(reminders.joined(separator: "\n") + "\n", to: STDERR_FILENO)
        }
    }

    /// The rows (under their group headers), the empty text, the counter.
    static func listLines(_ state: TodoListState, style: TerminalStyle = .plain) -> [String] {
        let width = state.rows.map { String($0.id).count }.max() ?? 1
        var lines: [String] = []
        var group: String?
        for item in state.rows {
            if let section = item.group, section != group {
                lines.append(style.bold(section))
                group = section
            }
            lines.append(row(item, idWidth: width, style: style))
        }
        if let empty = state.properties.emptyText { lines.append(style.quiet(empty)) }
        lines.append(state.properties.itemsLeft)
        return lines
    }

    /// One line per reminder the view model decided on, and how many more.
    static func reminderLines(_ state: TodoListState, style: TerminalStyle = .plain) -> [String] {
        var lines = state.properties.alerts.map { style.alert("reminder: \($0.message)") }
        let unlisted = state.properties.alertCount - state.properties.alerts.count
        if unlisted > 0 { lines.append(style.alert("reminder: and \(unlisted) more")) }
        return lines
    }

    /// One row: subtasks indented two spaces a level; a path row (shown
    /// for a matching subtask under it) dimmed and without a box; a
    /// blocked item says so.
    static func row(_ row: TodoRow, idWidth: Int = 1, style: TerminalStyle = .plain) -> String {
        let id = String(row.id)
        let padding = String(repeating: " ", count: max(0, idWidth - id.count))
        // Deep trees indent as far as 16 levels, then align.
        let indent = String(repeating: "  ", count: min(row.depth ?? 0, 16))
        if row.context == true {
            return "\(padding)\(style.quiet(id))  \(indent)    \(style.quiet(row.title))"
        }
        var title = row.done ? style.doneTitle(row.title) : row.title
        if row.blocked == true { title += " " + style.quiet("(blocked)") }
        var line = "\(padding)\(style.quiet(id))  \(indent)\(style.mark(done: row.done)) \(title)"
        if let due = row.dueText {
            let text = "(\(due)\(row.overdue ? ", overdue" : ""))"
            line += "  " + (row.overdue ? style.alert(text) : text)
        }
        if !row.fieldsText.isEmpty { line += "  " + style.quiet(row.fieldsText) }
        if let waiting = row.waitText { line += "  " + style.quiet("(\(waiting))") }
        return line
    }

    /// What a listing shows, on one line: `view main · sort created`,
    /// `query +home · filter active · sort due`.
    static func header(_ state: TodoListState, view name: String?) -> String {
        let properties = state.properties
        var parts = [name.map { "view \($0)" } ?? "own listing"]
        if !properties.query.isEmpty { parts.append("query \(properties.query)") }
        parts.append("filter \(properties.filter.rawValue)")
        parts.append("sort \(properties.sort.text)")
        if let grouping = properties.grouping { parts.append("grouped by \(grouping.rawValue)") }
        return parts.joined(separator: " · ")
    }

    /// A value as one line of compact JSON with sorted keys (the protocol's shape).
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "null"
    }
}
