import TodoModel
import TodoViewState

/// How the list's counters, empty states and compact fields read.
public enum ListWording {
    /// English plural rules for this phrase: "1 item left", every other count
    /// (including 0) takes "items".
    public static func itemsLeft(activeCount count: Int) -> String {
        count == 1 ? "1 item left" : "\(count) items left"
    }

    /// "0 overdue", "1 overdue", "3 overdue".
    public static func overdue(_ count: Int) -> String { "\(count) overdue" }

    /// "nothing due today", "1 due today".
    public static func dueToday(_ count: Int) -> String { count == 0 ? "nothing due today" : "\(count) due today" }

    /// The group header of items without a project.
    public static let noProject = "(no project)"

    /// What a view with no rows says, so an empty screen is never a puzzle.
    public static func emptyText(filter: ListFilter, query: Query = .all, totalCount: Int) -> String {
        if totalCount == 0 { return "Nothing to do. Add an item with: todoctl add TITLE" }
        if query != .all {
            let which = filter == .all ? "" : " \(filter.rawValue)"
            return "No\(which) items match \(query)."
        }
        switch filter {
        case .all: return "Nothing to do."
        case .active: return "No active items: everything is done."
        case .completed: return "No completed items yet."
        }
    }

    /// Priority, project, tags and repetition in a few columns:
    /// "H · home.garden · +errands +home · ↻ weekly"; "" for a plain item.
    public static func fields(of item: TodoItem) -> String {
        fields(of: item, sortedTags: item.sortedTags)
    }

    /// As `fields(of:)`, with the item's tags already sorted (a row needs them too).
    /// Written into one string (every row of a view has one).
    static func fields(of item: TodoItem, sortedTags: [String]) -> String {
        var text = ""
        func startPart() { if !text.isEmpty { text += " · " } }
        if let priority = item.priority { text += priority.letter }
        if let project = item.project {
            startPart()
            text += project
        }
        for (index, tag) in sortedTags.enumerated() {
            if index == 0 { startPart() } else { text += " " }
            text += "+"
            text += tag
        }
        if let recurrence = item.recurrence {
            startPart()
            text += "↻ " + recurrence.text
        }
        if !item.notes.isEmpty {
            startPart()
            text += item.notes.count == 1 ? "1 note" : "\(item.notes.count) notes"
        }
        return text
    }
}
