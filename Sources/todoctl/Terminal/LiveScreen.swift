import FoundationEssentials
import Glibc
import TodoModel
import TodoClient
import TodoProtocol
import TodoViewState

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
    /// The named view watched (nil: a view of this watch's own).
    private let view: String?
    /// The subscription, which names an own view in `view.setOptions`.
    private var subscription: Int?
    /// The line being typed, if a prompt is open.
    private var prompt: LinePrompt?
    /// A key that changes a shared view, pressed once: pressing it again
    /// confirms, since every terminal on that view would see the change.
    private var armed: Key?

    init(terminal: RawTerminal, style: TerminalStyle, view: String?) {
        self.terminal = terminal
        self.style = style
        self.view = view
    }

    /// The subscription the screen shows (after each (re)subscription).
    func watching(subscription: Int) {
        self.subscription = subscription
    }

    /// Takes one chunk of keyboard input: typed text while a prompt is open,
    /// keys otherwise. Returns false when the screen should close.
    func receive(_ bytes: [UInt8]) async -> Bool {
        var rest = bytes[...]
        // Keys one at a time: once one opens a prompt (pasted or typed
        // fast, "abuy milk⏎" can come as one chunk), the rest is its text.
        while prompt == nil, !rest.isEmpty {
            let (key, length) = Key.next(in: rest)
            rest = rest.dropFirst(length)
            if let key, !(await handle(key)) { return false }
        }
        guard var prompt, !rest.isEmpty else { return true }
        let outcome = prompt.receive(Array(rest))
        switch outcome {
        case .editing:
            self.prompt = prompt
            draw()
        case .cancelled:
            self.prompt = nil
            say("")
        case .submitted(let text):
            self.prompt = nil
            await submit(prompt.purpose, text)
        }
        return true
    }

    /// Carries out what a prompt was for.
    private func submit(_ purpose: LinePrompt.Purpose, _ text: String) async {
        let trimmed = text.trimmingWhitespace()
        switch purpose {
        case .query:
            // A prompt that names the shared view it changes is explicit enough.
            let options = SetViewOptions.Params(view: view, subscription: view == nil ? subscription : nil, query: trimmed)
            await send({ try await $0.call(SetViewOptions.self, options) }, done: trimmed.isEmpty ? "query cleared" : "query: \(trimmed)")
        case .add:
            guard !trimmed.isEmpty else { return say("") }
            await send({ try await $0.call(AddTodo.self, .init(text: trimmed)) }, done: "added")
        case .edit(let id):
            await send({ try await $0.call(EditTodo.self, .init(id: id, title: trimmed)) }, done: "renamed \(id)")
        case .modify(let id):
            guard !trimmed.isEmpty else { return say("") }
            await send({ try await $0.call(ModifyTodo.self, .init(id: id, text: trimmed)) }, done: "modified \(id)")
        }
    }

    /// Changes the watched view's options: an own view at once; a named
    /// view, which every terminal on it shares, on the second press.
    private func changeOptions(_ key: Key, _ options: SetViewOptions.Params, describe: String) async {
        if let view {
            guard armed == key else {
                armed = key
                return say("press \(key == .filter ? "f" : "s") again to apply \(describe) to shared view \(view)")
            }
            let named = SetViewOptions.Params(view: view, filter: options.filter, sort: options.sort)
            await send({ try await $0.call(SetViewOptions.self, named) }, done: "\(describe) (view \(view), every terminal)")
        } else if let subscription {
            let own = SetViewOptions.Params(subscription: subscription, filter: options.filter, sort: options.sort)
            await send({ try await $0.call(SetViewOptions.self, own) }, done: describe)
        }
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
        if key != armed { armed = nil }
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
            await changeOptions(key, SetViewOptions.Params(filter: next), describe: "filter \(next.rawValue)")
        case .sort:
            let all = ListSort.presets
            let next = all[((all.firstIndex(of: state.properties.sort) ?? -1) + 1) % all.count]
            await changeOptions(key, SetViewOptions.Params(sort: next), describe: "sort \(next.text)")
        case .undo:
            await send({ try await $0.call(Undo.self, NoParams()).done }, said: { $0 })
        case .redo:
            await send({ try await $0.call(Redo.self, NoParams()).done }, said: { $0 })
        case .search:
            let whose = view.map { "query for the shared view \($0) (every terminal): " } ?? "query: "
            openPrompt(LinePrompt(.query, label: whose, text: state.properties.query))
        case .add:
            openPrompt(LinePrompt(.add, label: "add (shorthand: +tag pro:x pri:H due:fri): "))
        case .edit:
            guard rows.indices.contains(index) else { return true }
            openPrompt(LinePrompt(.edit(rows[index].id), label: "title of \(rows[index].id): ", text: rows[index].title))
        case .modify:
            guard rows.indices.contains(index) else { return true }
            openPrompt(LinePrompt(.modify(rows[index].id), label: "modify \(rows[index].id) (+tag -tag pri:H due:fri …): "))
        }
        return true
    }

    private func openPrompt(_ prompt: LinePrompt) {
        self.prompt = prompt
        draw()
    }

    /// Sends a request; a refusal ("nothing to undo") becomes the notice,
    /// and so does `done` (or what `said` makes of the reply) when it succeeds.
    private func send<Reply: Sendable>(
        _ request: @Sendable (TodoConnection) async throws -> Reply, done: String? = nil, said: ((Reply) -> String?)? = nil
    ) async {
        guard let daemon else {
            say("not connected; waiting for todod")
            return
        }
        do {
            let reply = try await request(daemon)
            if let text = said?(reply) ?? done { say(text) }
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
        bottom.append(prompt?.line ?? notice ?? "")
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
            var text = ListRendering.row(rows[index], idWidth: idWidth, style: style)
            // In a view grouped by project, a section's first row names it.
            if let group = rows[index].group, index == 0 || rows[index - 1].group != group {
                text = style.bold("[\(group)] ") + text
            }
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
        "\u{1B}[7m" + text.replacing("\u{1B}[0m", with: "\u{1B}[0m\u{1B}[7m") + "\u{1B}[0m"
    }
}
