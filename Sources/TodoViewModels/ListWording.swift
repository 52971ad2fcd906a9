/// How the list's counter and empty states read.
public enum ListWording {
    /// English plural rules for this phrase: "1 item left", every other count
    /// (including 0) takes "items".
    public static func itemsLeft(activeCount count: Int) -> String {
        count == 1 ? "1 item left" : "\(count) items left"
    }

    /// What a view with no rows says, so an empty screen is never a puzzle.
    public static func emptyText(filter: ListFilter, totalCount: Int) -> String {
        switch filter {
        case _ where totalCount == 0: "Nothing to do. Add an item with: todoctl add TITLE"
        case .all: "Nothing to do."
        case .active: "No active items: everything is done."
        case .completed: "No completed items yet."
        }
    }
}
