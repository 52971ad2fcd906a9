import ArgumentParser
import TodoClient
import TodoProtocol

/// The ids a command acts on, as `todoctl ls` shows them.
struct ItemIDs: ParsableArguments {
    @Argument(help: "The ids of the items, as `todoctl ls` shows them.")
    var ids: [Int64] = []

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Name at least one item id.") }
    }

    /// Runs `command` for each id over one connection, printing what it
    /// returns. Every refused id is reported; the exit code is that of the
    /// last refusal, so `todoctl done 1 99 2` does 1 and 2 and still fails.
    func forEach(
        on connection: ConnectionOptions,
        _ command: @escaping @Sendable (TodoConnection, Int64) async throws -> String
    ) async throws {
        let ids = ids
        let failures = try await withDaemon(connection) { daemon in
            var failures: [RPCError] = []
            for id in ids {
                do {
                    print(try await command(daemon, id))
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
