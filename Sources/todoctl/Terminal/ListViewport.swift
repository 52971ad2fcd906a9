/// Which rows of the list the live screen shows: a window onto the rows that
/// moves only as far as it must to keep the selected row in view, so the
/// list does not jump under the reader's eyes with every move of the
/// selection, and that a page key moves by a whole page.
struct ListViewport {
    /// The index of the first row shown.
    private(set) var first = 0
    /// How many rows fit, as of the last layout.
    private(set) var room = 1

    /// Rows a page key moves: all that fit, less one kept in view for context.
    var page: Int { max(1, room - 1) }

    /// Lays the window out for `count` rows in `room` lines, keeping `selected`
    /// in view and never showing blank lines past the end of a list that
    /// could fill them.
    mutating func layOut(count: Int, room: Int, selected: Int) {
        self.room = max(1, room)
        if selected < first { first = selected }
        if selected >= first + self.room { first = selected - self.room + 1 }
        first = min(max(0, first), max(0, count - self.room))
    }

    /// Moves the window by `rows` (negative: up), as a page key does with the
    /// selection, so the selected row keeps its place on the screen.
    mutating func scroll(by rows: Int) {
        first = max(0, first + rows)
    }

    /// The rows shown, of `count`.
    func visible(of count: Int) -> Range<Int> {
        min(first, count)..<min(first + room, count)
    }
}
