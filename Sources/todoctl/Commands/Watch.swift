import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import TodoClient
import TodoProtocol
import TodoViewState

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show the list and redraw it whenever any client changes it: the shared view, @NAME, or a query.",
        discussion: """
            The daemon pushes every change; nothing is polled. In a terminal the screen is redrawn \
            in place; otherwise the whole list is printed again after a `--- revision N` line. \
            If todod stops or restarts (e.g. `systemctl --user restart todod`), watch reconnects.

            For status bars, --format prints one line per change, e.g. \
            `todoctl watch @work --format '{itemsLeft} · {overdueCount} overdue'`: only the properties \
            it names are sent.
            """
    )

    @ParentCommand var todoctl: Todoctl
    var connection: ConnectionOptions { todoctl.connection }

    @Option(help: "How long to keep trying to reconnect after todod goes away, in seconds.")
    var reconnectSeconds: Double = 30

    @Flag(help: "Print every notification as one JSON line (NDJSON, for jq) instead of drawing the list.")
    var events = false

    @Option(help: "Print one line per change from this template: {itemsLeft}, {overdueCount}, … (any view property).")
    var format: String?

    @Flag(help: "Watch without the tree: subtasks in sort order among the rest, no path rows.")
    var flat = false

    // `.allUnrecognized`: a query word like `-work` is not an option.
    @Argument(parsing: .allUnrecognized, help: "@NAME, or a query; none: the shared view main.")
    var query: [String] = []

    func validate() throws {
        if let format { _ = try StatusFormat(format) }
        if format != nil && events { throw ValidationError("Give --format or --events, not both.") }
    }

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let style = self.output.style
        let (selection, viewName) = try ViewChoice.selection(words: query, filter: nil, sort: nil, grouping: nil, flat: flat)
        let format = try self.format.map(StatusFormat.init)
        var live: (screen: LiveScreen, terminal: RawTerminal)?
        if !events, format == nil, let terminal = RawTerminal.enter(onResize: { LiveScreenResize.shared.fire() }) {
            let screen = LiveScreen(terminal: terminal, style: style, view: viewName)
            LiveScreenResize.shared.target = screen
            live = (screen, terminal)
            Self.readKeys(into: screen, terminal: terminal)
        }
        defer { live?.terminal.leave() }
        // Nobody reads any more (a closed pipe, a killed tmux, a hung-up
        // terminal): end now, not at the next change.
        ReaderGone.watchStandardOutput(beforeEnding: { [terminal = live?.terminal] in terminal?.leave() })
        let output: WatchOutput =
            if let live { .live(live.screen) } else if events { .events } else if let format { .status(format) } else {
                .screen(
                    WatchScreen(
                        isTerminal: isatty(STDOUT_FILENO) == 1
                            && RawTerminal.canDrawFullScreen(term: ProcessInfo.processInfo.environment["TERM"]),
                        style: style, view: viewName))
            }
        let position = Mutex(WatchPosition())
        let follower = DaemonFollower(
            socketPath: connection.socket, retryInterval: .milliseconds(200), patience: .seconds(reconnectSeconds),
            firstSessionRequired: true)
        do {
            try await follower.run(
                onEvent: { event in
                    switch event {
                    case .lost: await output.notice("todoctl: todod went away; reconnecting…")
                    case .refused(let refusal): await output.notice("todoctl: \(refusal.message)")
                    case .reached: break
                    }
                },
                session: { daemon in
                    await output.connected(daemon)
                    var current = position.withLock { $0 }
                    do {
                        try await Self.follow(daemon, selection: selection, from: &current, to: output)
                    } catch {
                        position.withLock { $0 = current }
                        await output.connected(nil)
                        throw error
                    }
                    position.withLock { $0 = current }
                    await output.connected(nil)
                })
        } catch let removed as WatchedViewRemoved {
            live?.terminal.leave()
            ClientFailure.printError("todoctl: \(removed.message)")
            throw ExitCode(ClientFailure.notFound)
        } catch let gaveUp as DaemonFollower.GaveUp {
            live?.terminal.leave()
            if let refusal = gaveUp.refusal { throw ClientFailure.report(ClientError.refused(refusal)) }
            ClientFailure.printError(
                ClientFailure.unreachableHint(socketPath: connection.socket, reason: "gone for \(Int(reconnectSeconds)) s"))
            throw ExitCode(ClientFailure.unreachable)
        } catch {
            live?.terminal.leave()
            throw ClientFailure.report(error)
        }
    }

    /// Reads the keyboard on a thread of its own (a blocking read) and hands
    /// each key to the screen; `q` or Ctrl-C restores the terminal and exits.
    private static func readKeys(into screen: LiveScreen, terminal: RawTerminal) {
        let (chunks, input) = AsyncStream<[UInt8]>.makeStream()
        // A thread of Dispatch's: Foundation's `Thread` would link all of Foundation.
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                input.yield(Array(buffer[..<count]))
            }
            input.finish()
        }
        Task {
            for await chunk in chunks where !(await screen.receive(chunk)) {
                terminal.leave()
                Glibc.exit(0)
            }
        }
    }

    /// Where the watcher's copy of the list stands, kept across reconnections.
    struct WatchPosition: Sendable {
        var resumePoint: ResumePoint?
        var state: TodoListState?
    }

    /// The named view being watched was removed (`view.removed`).
    struct WatchedViewRemoved: Error {
        var message: String
    }

    /// Subscribes (resuming from `position` if there is one) and shows every
    /// change until the connection ends.
    private static func follow(
        _ daemon: TodoConnection, selection: ViewSelection, from position: inout WatchPosition, to output: WatchOutput
    ) async throws {
        if case .status(let format) = output {
            try await followStatus(daemon, selection: selection, format: format)
            return
        }
        let reply = try await daemon.call(
            SubscribeListView.self,
            SubscribeListView.Params(
                view: selection.view, own: selection.own, filter: selection.filter, sort: selection.sort,
                query: selection.query, grouping: selection.grouping, since: position.resumePoint, flat: selection.flat))
        var notifications = daemon.notifications.makeAsyncIterator()
        if case .events = output {
            // The greeting came before the reply (nothing is sent before
            // it), so it is printed first, as todod sent it.
            while let message = await notifications.next() {
                guard case .notification(let method, let payload) = message else { continue }
                StandardStreams.write(payload.line + Data("\n".utf8))
                if method == ServerHello.name { break }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func emit(_ body: ChangeBody) {
            guard case .events = output, let data = try? encoder.encode(body) else { return }
            StandardStreams.write(ListViewChanged.line(subscription: reply.subscription, encodedBody: data))
        }
        switch reply.mode {
        case .snapshot, .reset:
            guard let state = reply.state?.fullState else { throw ClientError.malformedReply("the subscription has no state") }
            if reply.mode == .reset {
                await output.notice("todoctl: todod could not replay what was missed (\(reply.reason ?? "reset")); showing the list afresh")
            }
            position.state = state
            emit(ChangeBody(revision: reply.revision, state: state, cause: nil))
        case .replay:
            guard var state = position.state else { throw ClientError.malformedReply("a replay without a state to apply it to") }
            for body in reply.replay {
                try body.apply(to: &state)
                emit(body)
            }
            position.state = state
            await output.notice("todoctl: reconnected; caught up \(reply.replay.count) missed \(reply.replay.count == 1 ? "change" : "changes")")
        }
        position.resumePoint = ResumePoint(epoch: reply.epoch, revision: reply.revision)
        if case .live(let screen) = output { await screen.watching(subscription: reply.subscription) }
        await output.draw(position.state!, revision: reply.revision)

        while let message = await notifications.next() {
            guard case .notification(let method, let payload) = message else { continue }
            if case .events = output, method != ListViewChanged.name {
                StandardStreams.write(payload.line + Data("\n".utf8))
            }
            switch method {
            case ListViewChanged.name:
                let change = try payload.params(ListViewChanged.Params.self)
                guard change.subscription == reply.subscription, var state = position.state else { continue }
                try change.body.apply(to: &state)
                position.state = state
                position.resumePoint?.revision = change.revision
                emit(change.body)
                await output.draw(state, revision: change.revision)
            default:
                if try Self.endsTheWatch(method, payload, subscription: reply.subscription) { return }
            }
        }
    }

    /// `--format`: subscribes to the template's properties only and prints
    /// the line at the start and whenever one of them changes.
    private static func followStatus(_ daemon: TodoConnection, selection: ViewSelection, format: StatusFormat) async throws {
        let reply = try await daemon.call(
            SubscribeListView.self,
            SubscribeListView.Params(
                view: selection.view, own: selection.own, filter: selection.filter, sort: selection.sort,
                query: selection.query, grouping: selection.grouping, properties: format.properties, flat: selection.flat))
        var values = reply.state?.properties ?? [:]
        var printed = format.line(values)
        // Unbuffered: a status bar reads each line as it comes.
        StandardStreams.write(printed + "\n")
        for await message in daemon.notifications {
            guard case .notification(let method, let payload) = message else { continue }
            switch method {
            case ListViewChanged.name:
                let change = try payload.params(ListViewChanged.Params.self)
                guard change.subscription == reply.subscription else { continue }
                values.merge(change.body.properties) { $1 }
                let line = format.line(values)
                if line != printed {
                    StandardStreams.write(line + "\n")
                    printed = line
                }
            default:
                if try Self.endsTheWatch(method, payload, subscription: reply.subscription) { return }
            }
        }
    }

    /// What ends a watch, whatever it shows: todod stopping (true: the
    /// watch ends well), or the watched view removed (thrown).
    private static func endsTheWatch(_ method: String, _ payload: IncomingMessage.Payload, subscription: Int) throws -> Bool {
        switch method {
        case ServerShutdown.name:
            return true
        case ViewRemoved.name:
            let removed = try payload.params(ViewRemoved.Params.self)
            guard removed.subscription == subscription else { return false }
            throw WatchedViewRemoved(message: removed.message)
        default:
            return false
        }
    }
}

/// What `watch` shows: the live screen, the list (redrawn), the raw event
/// stream, or a status line.
enum WatchOutput: Sendable {
    case live(LiveScreen)
    case screen(WatchScreen)
    case events
    case status(StatusFormat)

    func draw(_ state: TodoListState, revision: Int) async {
        switch self {
        case .live(let screen): await screen.show(state)
        case .screen(let screen): screen.draw(state, revision: revision)
        case .events, .status: break
        }
    }

    /// A notice for people: on the live screen's notice line, else on stderr.
    func notice(_ text: String) async {
        if case .live(let screen) = self { await screen.say(text) } else { ClientFailure.printError(text) }
    }

    func connected(_ daemon: TodoConnection?) async {
        if case .live(let screen) = self { await screen.connected(daemon) }
    }
}

/// Where SIGWINCH finds the live screen (the signal handler is set up
/// before the screen exists).
final class LiveScreenResize: Sendable {
    static let shared = LiveScreenResize()
    private let screen = Mutex<LiveScreen?>(nil)

    var target: LiveScreen? {
        get { screen.withLock { $0 } }
        set { screen.withLock { $0 = newValue } }
    }

    func fire() {
        guard let screen = target else { return }
        Task { await screen.resized() }
    }
}

/// Where `watch` draws: a terminal redrawn in place, or a stream of full lists.
struct WatchScreen: Sendable {
    let isTerminal: Bool
    let style: TerminalStyle
    /// The named view watched; nil for a listing of its own.
    var view: String? = "main"

    func draw(_ state: TodoListState, revision: Int) {
        var output = ""
        if isTerminal {
            output += "\u{1B}[H\u{1B}[2J"  // cursor home, clear screen
            output += "todoctl watch — Ctrl-C to quit\n\n"
        } else {
            output += "--- revision \(revision)\n"
        }
        output += style.quiet(ListRendering.header(state, view: view)) + "\n"
        output += ListRendering.lines(state, style: style).joined(separator: "\n") + "\n"
        StandardStreams.write(output)
    }
}
