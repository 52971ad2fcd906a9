import ArgumentParser
import TodoClient
import TodoProtocol

struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete items.")

    @ParentCommand var todoctl: Todoctl
    var connection: ConnectionOptions { todoctl.connection }

    @Argument(help: "The ids of the items, as `todoctl ls` shows them.")
    var ids: [Int64]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Name at least one item id: todoctl rm ID...") }
    }

    func run() async throws {
        let ids = ids
        let failures = try await withDaemon(connection) { daemon in
            var failures: [RPCError] = []
            for id in ids {
                do {
                    _ = try await daemon.call(RemoveTodo.self, .init(id: id))
                    print("removed \(id)")
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
