import Foundation
import TodoClient
import TodoProtocol
import TodoViewModels

/// The interactive `todoctl watch`: the shared view drawn full-screen, a
/// selected row, and keys that act on it through the daemon.
///
/// It draws what the view model says (row texts, counter, reminders, filter
/// and sort) and decides only what a screen must: which row is selected,
/// what fits, and the last notice. Every key becomes a request; the screen
/// changes when the daemon's event comes back, like everyone else's.
actor LiveScreen {
    private let terminal: RawTerminal
    private let style: TerminalStyle
    private var state: TodoListState?
    private var selectedID: Int64?
    private var notice: String?
    private var viewport = ListViewport()
    /// The connection keys act through; replaced when watch reconnects.
    private var daemon: TodoConnection?

    init(terminal: RawTerminal, style: TerminalStyle) {
        self.terminal = terminal
        self.style = style
    }

    func show(_ state: TodoListState) {
        self.state = state
        draw()
    }

    func say(_ notice: String) {
        self.notice = notice
        draw()
    }

    func connected(_ daemon: TodoConnection?) {
        self.daemon = daemon
    }

    func resized() { draw() }

    /// Acts on a key; returns false when the screen should close.
    func handle(_ key: Key) async -> Bool {
        guard let state else { return key != .quit }
        let rows = state.rows
        let index = selectedIndex(in: rows)
        switch key {
        case .quit:
            return false
        case .up, .down, .pageUp, .pageDown, .first, .last:
            guard !rows.isEmpty else { return true }
            let next = min(max(0, target(of: key, from: index, count: rows.count)), rows.count - 1)
            selectedID = rows[next].id
            draw()
        case .toggle:
            guard rows.indices.contains(index) else { return true }
            let row = rows[index]
            await send { try await $0.call(SetTodoDone.self, .init(id: row.id, done: !row.done)) }
        case .filter:
            let all = ListFilter.allCases
            let next = all[(all.firstIndex(of: state.properties.filter)! + 1) % all.count]
            await send { try await $0.call(SetViewOptions.self, .init(filter: next)) }
        case .sort:
            let all = ListSort.presets
            let next = all[((all.firstIndex(of: state.properties.sort) ?? -1) + 1) % all.count]
            await send { try await $0.call(SetViewOptions.self, .init(sort: next)) }
        case .undo:
            await send { try await $0.call(Undo.self, NoParams()) }
        case .redo:
            await send { try await $0.call(Redo.self, NoParams()) }
        }
        return true
    }

    /// Sends a request; a refusal ("nothing to undo") becomes the notice.
    private func send(_ request: @Sendable (TodoConnection) async throws -> some Sendable) async {
        guard let daemon else {
            say("not connected; waiting for todod")
            return
        }
        do {
            _ = try await request(daemon)
        } catch ClientError.refused(let error) {
            say(error.message)
        } catch {
            say("\(error)")
        }
    }

    /// The row a movement key selects (unclamped); a page key scrolls the
    /// window along with the selection, so the selected row keeps its place.
    private func target(of key: Key, from index: Int, count: Int) -> Int {
        switch key {
        case .up: return index - 1
        case .down: return index + 1
        case .pageUp:
            viewport.scroll(by: -viewport.page)
            return index - viewport.page
        case .pageDown:
            viewport.scroll(by: viewport.page)
            return index + viewport.page
        case .first: return 0
        case .last: return count - 1
        default: return index
        }
    }

    private func selectedIndex(in rows: [TodoRow]) -> Int {
        if let selectedID, let index = rows.firstIndex(where: { $0.id == selectedID }) { return index }
        return 0
    }

    /// Draws, top to bottom: the heading; "N more above" when rows are
    /// scrolled off the top (else a blank line); the rows that fit; "N more
    /// below" (else blank); the counter, reminders, the notice and the keys
    /// (in at most a quarter of the lines).
    /// Every line is cut to the terminal's width by display columns, so wide
    /// titles never wrap and push the screen out of place.
    private func draw() {
        guard let state else { return }
        let (columns, height) = terminal.size
        let properties = state.properties
        let rows = state.rows
        let heading = style.bold("todoctl watch · " + ListRendering.header(state, view: view))
        var bottom: [String] = []
        if let empty = properties.emptyText { bottom.append(style.quiet(empty)) }
        bottom.append(properties.itemsLeft)
        bottom += properties.alerts.map { style.alert("reminder: \($0.message)") }
        let unlisted = properties.alertCount - properties.alerts.count
        if unlisted > 0 { bottom.append(style.alert("reminder: and \(unlisted) more")) }
        bottom.append(notice ?? "")
        bottom += Key.helpLines(fitting: columns, atMost: max(1, height / 4)).map { style.quiet($0) }

        let selected = selectedIndex(in: rows)
        let headingAndMoreLines = 3
        viewport.layOut(count: rows.count, room: height - headingAndMoreLines - bottom.count, selected: selected)
        let shown = viewport.visible(of: rows.count)
        let idWidth = rows.map { String($0.id).count }.max() ?? 1
        var lines: [(text: String, selected: Bool)] = [
            (heading, false), (moreLine(shown.lowerBound, "↑", "above"), false),
        ]
        for index in shown {
            let text = ListRendering.row(rows[index], idWidth: idWidth, style: style)
            lines.append(((index == selected ? "› " : "  ") + text, index == selected))
        }
        lines.append((moreLine(rows.count - shown.upperBound, "↓", "below"), false))
        lines += bottom.map { ($0, false) }

        let fitting = lines.prefix(height)
        var screen = "\u{1B}[H"
        for (number, line) in fitting.enumerated() {
            let fitted = DisplayWidth.truncate(line.text, toColumns: columns)
            screen += (line.selected ? Self.reverse(fitted) : fitted) + "\u{1B}[K"
            if number < fitting.count - 1 { screen += "\r\n" }
        }
        screen += "\u{1B}[J"
        terminal.write(screen)
    }

    /// The line that says how many rows are scrolled off in one direction;
    /// blank when none are.
    private func moreLine(_ count: Int, _ arrow: String, _ direction: String) -> String {
        count > 0 ? style.quiet("  \(arrow) \(count) more \(direction)") : ""
    }

    private static func reverse(_ text: String) -> String {
        "\u{1B}[7m" + text.replacingOccurrences(of: "\u{1B}[0m", with: "\u{1B}[0m\u{1B}[7m") + "\u{1B}[0m"
    }
}
