/// Where todod keeps its list, as `todod --store` and todod.conf's
/// `store =` name it: `sqlite:PATH` for a file of its own, or a
/// `postgres://` URL for a list shared by several todod instances.
///
/// One value names both kinds so that one option chooses between them and
/// the status and logs can say which is in use (``description``).
public enum StoreLocation: Equatable, Sendable, CustomStringConvertible {
    /// An SQLite database file; the path is absolute.
    case sqlite(path: String)
    /// A PostgreSQL database.
    case postgres(PostgresLocation)

    /// Reads a store as given on the command line or in todod.conf.
    ///
    /// - `sqlite:PATH`: an absolute path, or one relative to `currentDirectory`
    ///   (`sqlite:///PATH` is read as `sqlite:/PATH`). The path is taken as
    ///   written, with no percent-decoding and no `~` (which would otherwise
    ///   make a folder named `~`, so it is refused).
    /// - `postgres://…` or `postgresql://…`: see ``PostgresLocation``; a
    ///   password in it is refused.
    ///
    /// The scheme is read without regard to case, as URL schemes are.
    ///
    /// - Parameters:
    ///   - currentDirectory: what relative paths are relative to; the result
    ///     holds absolute ones, so it means the same after a change of directory.
    ///   - environment: the process's environment, for PGUSER.
    public init(parsing text: String, currentDirectory: String, environment: [String: String]) throws(StoreLocationError) {
        try self.init(
            parsing: text, currentDirectory: currentDirectory, environment: environment,
            systemUserName: PostgresLocation.systemUserName
        )
    }

    /// As the public initializer, with the process's user name given, for tests.
    init(
        parsing text: String, currentDirectory: String, environment: [String: String],
        systemUserName: () -> String?
    ) throws(StoreLocationError) {
        guard !text.isEmpty else { throw .empty }
        guard let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") else { throw .noScheme(text) }
        let scheme = text[..<colon].lowercased()
        let rest = text[text.index(after: colon)...]
        switch scheme {
        case "sqlite":
            self = .sqlite(path: try Self.sqlitePath(rest, currentDirectory: currentDirectory))
        case "postgres", "postgresql":
            guard rest.hasPrefix("//") else { throw .postgresWithoutSlashes(text) }
            self = .postgres(
                try PostgresLocation(
                    urlAfterSlashes: rest.dropFirst(2), currentDirectory: currentDirectory,
                    environment: environment, systemUserName: systemUserName
                )
            )
        default:
            throw .unknownScheme(String(text[..<colon]))
        }
    }

    /// The store in a normalized form without secrets, for logs and
    /// `server.status`: `sqlite:/home/me/.local/share/todod/todo.sqlite` or
    /// `postgres://todod@db.example:5432/todo?sslmode=prefer`. It reads back
    /// to an equal location.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let location): location.description
        }
    }

    /// The absolute path `sqlite:` names: `//` in front only before a
    /// third `/` (an empty URL authority), empty and `.` components dropped.
    /// `..` is kept, since which folder it leads to depends on symbolic links.
    private static func sqlitePath(_ rest: Substring, currentDirectory: String) throws(StoreLocationError) -> String {
        var path = rest
        if path.hasPrefix("//") {
            guard path.dropFirst(2).hasPrefix("/") else { throw .sqliteHost("sqlite:\(rest)") }
            path = path.dropFirst(2)
        }
        guard !path.isEmpty else { throw .missingSQLitePath }
        guard !path.hasPrefix("~") else { throw .sqliteTildePath(String(path)) }
        let absolute = absolutePath(String(path), in: currentDirectory)
        let components = absolute.split(separator: "/").filter { $0 != "." }
        return "/" + components.joined(separator: "/")
    }
}
