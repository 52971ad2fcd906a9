/// The database no longer holds the list this instance holds: a backup was
/// restored under it, or another list was copied over it (`todod migrate
/// --force`). Nothing planned on the old list can be stored; the instance
/// reloads the list from the database (`SharedListFollower.reload`).
public struct SharedListMoved: Error, CustomStringConvertible, Sendable {
    public enum Change: Sendable, Equatable {
        /// The list is the same but at an earlier revision than this instance has seen.
        case wentBack(from: Int, to: Int)
        /// Another list, another history of it (a new epoch), or the same list in tables made anew.
        case replaced
    }

    public var change: Change
    /// The server, as errors name it.
    public var server: String

    public init(change: Change, server: String) {
        self.change = change
        self.server = server
    }

    public var description: String {
        switch change {
        case .wentBack(let from, let to):
            "the shared list in \(server) went back from revision \(from) to \(to) (a backup restored?)"
        case .replaced:
            "the shared list in \(server) was replaced (a backup restored, or a list copied over it with todod migrate --force)"
        }
    }
}
