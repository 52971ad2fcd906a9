import ArgumentParser
import TodoClient
import TodoProtocol

/// Marks the given items done or active, one request each; reports every id
/// that failed and exits with the code of the last failure.
struct DoneStateChange {
    let connection: ConnectionOptions
    let ids: [Int64]
    let done: Bool

    func run() async throws {
        let ids = ids
        let done = done
        let failures = try await withDaemon(connection) { daemon in
            var failures: [RPCError] = []
            for id in ids {
                do {
                    let result = try await daemon.call(SetTodoDone.self, .init(id: id, done: done))
                    print(ListRendering.row(result.item))
                } catch ClientError.refused(let error) {
                    failures.append(error)
                }
            }
            return failures
        }
        for failure in failures { ClientFailure.printError("todoctl: \(failure.message)") }
        if let last = failures.last { throw ExitCode(ClientFailure.exitCode(for: last)) }
    }
}

struct Done: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mark items done.")

    @ParentCommand var todoctl: Todoctl
    var connection: ConnectionOptions { todoctl.connection }

    @Argument(help: "The ids of the items, as `todoctl ls` shows them.")
    var ids: [Int64]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Name at least one item id: todoctl done ID...") }
    }

    func run() async throws {
        try await DoneStateChange(connection: connection, ids: ids, done: true).run()
    }
}

struct Undone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mark items not done (active) again.")

    @ParentCommand var todoctl: Todoctl
    var connection: ConnectionOptions { todoctl.connection }

    @Argument(help: "The ids of the items, as `todoctl ls` shows them.")
    var ids: [Int64]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Name at least one item id: todoctl undone ID...") }
    }

    func run() async throws {
        try await DoneStateChange(connection: connection, ids: ids, done: false).run()
    }
}
