import Foundation

/// libpq's password file (the ~/.pgpass format), which clients read through
/// PGPASSFILE or `passfile=`: one `hostname:port:database:username:password`
/// line per way in.
enum PasswordFile {
    /// `host` is a name or address for TCP, and the socket directory's path for
    /// a Unix socket: libpq compares it with the host the connection was given.
    static func line(host: String, port: Int, database: String = "*", user: String, password: String) -> String {
        [host, String(port), database, user, password].map(escaped).joined(separator: ":")
    }

    /// Written with mode 0600 from the start: libpq ignores a file that the group
    /// or others may read.
    static func write(_ lines: [String], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw PostgresClusterError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let text = Array(lines.map { $0 + "\n" }.joined().utf8)
        let written = text.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        guard written == text.count else {
            throw PostgresClusterError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// `:` separates fields and `\` escapes: both are escaped with a backslash.
    private static func escaped(_ field: String) -> String {
        field.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
    }
}
