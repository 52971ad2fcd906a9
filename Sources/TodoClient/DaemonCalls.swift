import CanonicalJSON
import TodoProtocol

/// What a command needs of its connection to todod: calls and their
/// results, and the longest line todod takes. `OneShotConnection` serves
/// the commands that ask and exit; `TodoConnection` the ones that stay
/// (`todoctl watch`), which also need todod's pushed notifications.
public protocol DaemonCalls: Sendable {
    /// Calls `M` and returns its typed result, or throws the daemon's error.
    func call<M: RPCMethod>(_ method: M.Type, _ params: M.Params) async throws -> M.Result
    /// The longest request line todod takes (its greeting's `maxLineBytes`),
    /// nil if it named none: a client cuts long input (an import) to fit.
    func maximumLineBytes() async throws -> Int?
    /// Sends any method with any parameters and returns the reply as it came
    /// (a response or an error), for `todoctl call`.
    func callRaw(_ method: String, params: JSONValue?) async throws -> IncomingMessage
}

extension TodoConnection: DaemonCalls {}
