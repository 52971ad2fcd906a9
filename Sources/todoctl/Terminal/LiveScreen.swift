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
        case .up, .down:
            guard !rows.isEmpty else { return true }
            let next = key == .up ? max(0, index - 1) : min(rows.count - 1, index + 1)
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
            let all = ListSort.allCases
            let next = all[(all.firstIndex(of: state.properties.sort)! + 1) % all.count]
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

    private func selectedIndex(in rows: [TodoRow]) -> Int {
        if let selectedID, let index = rows.firstIndex(where: { $0.id == selectedID }) { return index }
        return 0
    }

    private func draw() {
        guard let state else { return }
        let (columns, height) = terminal.size
        let properties = state.properties
        var top = ["todoctl watch · filter: \(properties.filter.rawValue) · sort: \(properties.sort.rawValue)", ""]
        var bottom = [""]
        if let empty = properties.emptyText { bottom.append(style.quiet(empty)) }
        bottom.append(properties.itemsLeft)
        bottom += properties.alerts.map { style.alert("reminder: \($0.message)") }
        let unlisted = properties.alertCount - properties.alerts.count
        if unlisted > 0 { bottom.append(style.alert("reminder: and \(unlisted) more")) }
        bottom.append(notice ?? "")
        bottom.append(style.quiet(Key.help))

        // The rows that fit, scrolled so the selected one shows.
        let room = max(1, height - top.count - bottom.count)
        let selected = selectedIndex(in: state.rows)
        let first = min(max(0, selected - room + 1), max(0, state.rows.count - room))
        let width = state.rows.map { String($0.id).count }.max() ?? 1
        let visible = state.rows.indices.dropFirst(first).prefix(room)
        top[0] = style.bold(top[0])
        var lines = top.map { (text: $0, selected: false) }
        for index in visible {
            let text = ListRendering.row(state.rows[index], idWidth: width, style: style)
            lines.append(((index == selected ? "› " : "  ") + text, index == selected))
        }
        lines += bottom.map { ($0, false) }
        let shown = lines.prefix(height)
        var screen = "\u{1B}[H"
        for (number, line) in shown.enumerated() {
            let fitted = DisplayWidth.truncate(line.text, toColumns: columns)
            screen += (line.selected ? Self.reverse(fitted) : fitted) + "\u{1B}[K"
            if number < shown.count - 1 { screen += "\r\n" }
        }
        screen += "\u{1B}[J"
        terminal.write(screen)
    }

    private static func reverse(_ text: String) -> String {
        "\u{1B}[7m" + text.replacingOccurrences(of: "\u{1B}[0m", with: "\u{1B}[0m\u{1B}[7m") + "\u{1B}[0m"
    }
}
