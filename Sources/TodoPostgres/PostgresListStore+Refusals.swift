import NIOCore
import NIOPosix
import PostgresNIO

#if canImport(Glibc)
import Glibc
#endif

/// What stops the store from opening for good: a setting to fix, not a
/// server to wait for. todod ends at once (exit 78), which systemd does not
/// retry.
extension PostgresListStore {
    /// The server was reached and refused the connection (authentication,
    /// an unknown database or role): a setting to fix, not a wait.
    public struct ConnectionRefused: Error, CustomStringConvertible {
        public var server: String
        public var reason: String
        public var description: String { "the PostgreSQL server \(server) refused the connection: \(reason)" }
    }

    /// The database holds no list (none of todod's tables), and todod was
    /// not told to make one: most likely the URL names another database
    /// than meant (the maintenance database `postgres`). Making a list
    /// there would take edits into a list nobody else sees.
    public struct NoListHere: Error, CustomStringConvertible {
        public var server: String
        public var database: String
        public var description: String {
            "the database “\(database)” (\(server)) holds no todod list. If the store URL names the wrong database, fix it; "
                + "to make a new shared list there, run `todod init-store URL` (or start todod with --init-store, or copy a list in with `todod migrate`)"
        }
    }

    /// todod may not open a network socket at all (EAFNOSUPPORT): under
    /// systemd, todod.service's sandbox allows Unix sockets only, unless
    /// the drop-in that lets it reach a server over TCP is installed.
    /// Waiting does not change that; it is a setting to fix.
    public struct NetworkForbidden: Error, CustomStringConvertible {
        public var server: String
        public var description: String {
            "todod may not open a network connection to \(server) (address family not supported): under systemd, the "
                + "sandbox of todod.service allows Unix sockets only. Add the drop-in todod-postgres.conf "
                + "(systemd/ in the source, /usr/share/doc/todod/examples/ from the package) as "
                + "~/.config/systemd/user/todod.service.d/postgres.conf and run systemctl --user daemon-reload, "
                + "or reach the server on its Unix socket (postgres:///DB?host=/run/postgresql)"
        }
    }

    /// Whether `error` says this process may not open a socket of that
    /// address family at all (a sandbox's RestrictAddressFamilies).
    static func forbidsNetwork(_ error: any Error) -> Bool {
        if let error = error as? IOError { return error.errnoCode == EAFNOSUPPORT }
        if let error = error as? NIOConnectionError {
            return !error.connectionErrors.isEmpty && error.connectionErrors.allSatisfy { forbidsNetwork($0.error) }
        }
        if let error = error as? PSQLError, let underlying = error.underlying { return forbidsNetwork(underlying) }
        return false
    }
}
