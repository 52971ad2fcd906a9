import ArgumentParser
import Foundation
import TodoClient
import TodoProtocol
import TodoViewModels

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the list and redraw it whenever any client changes it.",
        discussion: """
            The daemon pushes every change; nothing is polled. In a terminal the screen is redrawn
            in place; otherwise the whole list is printed again after a `--- revision N` line.
            If todod stops or restarts (e.g. `systemctl --user restart todod`), watch reconnects.
            """
    )

    @ParentCommand var todoctl: Todoctl
    var connection: ConnectionOptions { todoctl.connection }

    @Option(help: "How long to keep trying to reconnect after todod goes away, in seconds.")
    var reconnectSeconds: Double = 30

    func run() async throws {
        let screen = WatchScreen(isTerminal: isatty(STDOUT_FILENO) == 1)
        var hasConnected = false
        while true {
            do {
                try await TodoConnection.with(socketPath: connection.socket) { daemon in
                    try await Self.follow(daemon, on: screen)
                }
                hasConnected = true
            } catch ClientError.daemonUnreachable(let path, let reason) where !hasConnected {
                throw ClientFailure.report(ClientError.daemonUnreachable(socketPath: path, reason: reason))
            } catch ClientError.daemonUnreachable, ClientError.connectionClosed {
                // handled below: the daemon went away after we had seen it
            } catch {
                throw ClientFailure.report(error)
            }
            ClientFailure.printError("todoctl: todod went away; reconnecting…")
            guard await waitForDaemon() else {
                ClientFailure.printError(
                    ClientFailure.unreachableHint(socketPath: connection.socket, reason: "gone for \(Int(reconnectSeconds)) s")
                )
                throw ExitCode(ClientFailure.unreachable)
            }
        }
    }

    /// Subscribes and draws every change until the connection ends.
    private static func follow(_ daemon: TodoConnection, on screen: WatchScreen) async throws {
        let subscription = try await daemon.call(SubscribeListView.self, ViewSelection())
        var state = subscription.state
        screen.draw(state, revision: subscription.revision)
        for await message in daemon.notifications {
            guard case .notification(let method, let payload) = message else { continue }
            switch method {
            case ListViewChanged.name:
                let change = try payload.params(ListViewChanged.Params.self)
                guard change.subscription == subscription.subscription else { continue }
                try change.apply(to: &state)
                screen.draw(state, revision: change.revision)
            case ServerShutdown.name:
                return
            default:
                continue
            }
        }
    }

    /// Retries connecting until the daemon answers or `reconnectSeconds` pass.
    /// Under socket activation the first retry already starts it again.
    private func waitForDaemon() async -> Bool {
        let deadline = Date().addingTimeInterval(reconnectSeconds)
        while Date() < deadline {
            try? await Task.sleep(for: .milliseconds(200))
            let reachable = (try? await TodoConnection.with(socketPath: connection.socket) { _ in true }) ?? false
            if reachable { return true }
        }
        return false
    }
}

/// Where `watch` draws: a terminal redrawn in place, or a stream of full lists.
struct WatchScreen: Sendable {
    let isTerminal: Bool

    func draw(_ state: TodoListState, revision: Int) {
        var output = ""
        if isTerminal {
            output += "\u{1B}[H\u{1B}[2J"  // cursor home, clear screen
            output += "todoctl watch — Ctrl-C to quit\n\n"
        } else {
            output += "--- revision \(revision)\n"
        }
        output += ListRendering.lines(state).joined(separator: "\n") + "\n"
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
