import ArgumentParser
import CanonicalJSON
import FoundationEssentials
import Glibc
import TodoClient
import TodoProtocol

struct Call: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Send one raw protocol request and print the reply line.",
        discussion: """
            For scripts and debugging. PARAMS is a JSON object; the reply is printed exactly as todod \
            sent it, one line of JSON. The exit status follows the error's kind, as for other commands.

            Examples:
              todoctl call rpc.describe | jq '.result.methods | keys'
              todoctl call todo.add '{"title":"buy milk","due":"2026-12-24"}'
              todoctl call transaction '{"commands":[{"method":"todo.setDone","params":{"id":1,"done":true}},{"method":"todo.remove","params":{"id":2}}]}'

            Methods: \(ProtocolMethods.names.joined(separator: ", ")).
            """
    )

    @ParentCommand var todoctl: Todoctl
    var connection: ConnectionOptions { todoctl.connection }

    /// Any name is sent as given (the daemon answers an unknown one); the
    /// shell completes the names of the method registry.
    @Argument(help: "The method, e.g. todo.add or view.get.", completion: .list(ProtocolMethods.names))
    var method: String

    @Argument(help: "The parameters, a JSON object (default: none).")
    var params: String?

    func run() async throws {
        var value: JSONValue?
        if let params {
            guard let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(params.utf8)), case .object = parsed else {
                throw ValidationError("PARAMS must be a JSON object, e.g. '{\"id\":1}'")
            }
            value = parsed
        }
        // Sent again, like every other command, when todod stopped before reading it.
        let reply = try await withDaemon(connection) { [value] daemon in
            try await daemon.callRaw(method, params: value)
        }
        switch reply {
        case .response(_, let payload):
            StandardStreams.write(payload.line + Data("\n".utf8))
        case .failure(let id, let error):
            StandardStreams.write(MessageEncoding.error(id: id, error))
            ClientFailure.printError("todoctl: \(error.message)")
            // A method todod does not have was named on the command line:
            // the user's mistake (64), not an unexpected reply (70).
            if error.code == RPCError.Code.methodNotFound { throw ExitCode.validationFailure }
            throw ExitCode(ClientFailure.exitCode(for: error))
        case .notification:
            throw ExitCode(ClientFailure.protocolFailure)
        }
    }
}
