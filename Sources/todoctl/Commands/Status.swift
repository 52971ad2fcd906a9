import ArgumentParser
import FoundationEssentials
import Glibc
import TodoProtocol

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what todod is doing: version, socket, data file, items, clients, uptime.",
        discussion: "With --json, prints the `server.status` result as the protocol defines it.")

    @ParentCommand var todoctl: Todoctl

    @Flag(help: "Print the status as JSON (the protocol's shape).")
    var json = false

    func run() async throws {
        let status = try await withDaemon(todoctl.connection) { daemon in
            try await daemon.call(ServerStatus.self, NoParams())
        }
        if json {
            print(ListRendering.json(status))
            return
        }
        var store = status.dataFile
        if let instance = status.instance { store += " (shared; this instance: \(instance))" }
        if status.stale { store += ", unreachable: serving reads from memory, refusing edits" }
        var rows: [(String, String)] = [
            ("server", "\(status.server) (protocol \(status.protocol))"),
            ("socket", todoctl.connection.socket),
            ("data", store),
            ("items", "\(status.items)"),
            ("clients", "\(status.connections - 1) other \(status.connections - 1 == 1 ? "connection" : "connections"), "
                + "\(status.subscriptions) \(status.subscriptions == 1 ? "subscription" : "subscriptions")"),
            ("uptime", Self.duration(status.uptimeSeconds)),
            ("revision", "\(status.revision) (epoch \(status.epoch))"),
        ]
        // Last, where the eye ends: what needs the operator's decision.
        rows += status.notices.map { ("notice", $0) }
        for (label, value) in rows {
            let heading = label + ":"
            print(heading + String(repeating: " ", count: max(0, 9 - heading.count)) + " \(value)")
        }
    }

    /// "45 s", "12 min", "3 h 5 min", "2 d 4 h".
    static func duration(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(seconds) s"
        case ..<3600: "\(seconds / 60) min"
        case ..<86_400: "\(seconds / 3600) h \(seconds % 3600 / 60) min"
        default: "\(seconds / 86_400) d \(seconds % 86_400 / 3600) h"
        }
    }
}
