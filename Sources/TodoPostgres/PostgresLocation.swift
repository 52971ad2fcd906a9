import PercentEncoding

/// A PostgreSQL server and database holding the list, with what it takes
/// to reach it: what a `postgres://` store URL says once its defaults are
/// filled in, so that every todod sharing a list, and every log line about
/// it, names the same place the same way.
///
/// It holds no password, by design: the URL may not carry one (it would show
/// in `ps` and in logs), so one comes from a pgpass file, read when
/// connecting (see ``password(environment:)``).
public struct PostgresLocation: Equatable, Sendable, CustomStringConvertible {
    /// How to reach the server.
    public enum Host: Equatable, Sendable {
        /// A host name or IP address (IPv6 without brackets) and a TCP port.
        case tcp(name: String, port: Int)
        /// The folder holding the server's socket, and the port that names
        /// the socket file (`.s.PGSQL.PORT`), as libpq does.
        case unixSocket(directory: String, port: Int)

        public var port: Int {
            switch self {
            case .tcp(_, let port), .unixSocket(_, let port): port
            }
        }

        /// The socket file, `DIRECTORY/.s.PGSQL.PORT`; nil over TCP.
        public var socketPath: String? {
            guard case .unixSocket(let directory, let port) = self else { return nil }
            return (directory == "/" ? "" : directory) + "/.s.PGSQL.\(port)"
        }
    }

    /// libpq's sslmode: whether to use TLS over TCP and how far to trust
    /// the server's certificate. Not used on Unix sockets (as libpq).
    public enum SSLMode: String, CaseIterable, Equatable, Sendable {
        /// Never TLS.
        case disable
        /// libpq tries without TLS first; postgres-nio cannot fall back
        /// that way round, so todod treats it as ``prefer``.
        case allow
        /// TLS if the server offers it, else plain; the certificate is not
        /// checked. libpq's default, and so todod's.
        case prefer
        /// TLS or no connection; the certificate is not checked (as libpq
        /// without a root certificate: encryption, not authentication).
        case require
        /// TLS, and a certificate signed by a trusted authority.
        case verifyCA = "verify-ca"
        /// TLS, a trusted certificate, and one issued for the host named.
        case verifyFull = "verify-full"
    }

    /// The port PostgreSQL listens on unless told otherwise.
    public static let defaultPort = 5432
    /// Where Debian's PostgreSQL puts its socket, and where Debian's libpq
    /// looks when a URL names no host.
    public static let defaultSocketDirectory = "/run/postgresql"

    public var host: Host
    public var user: String
    public var database: String
    public var sslMode: SSLMode
    /// The pgpass file named by `passfile=`, as an absolute path; nil to
    /// look where libpq does (PGPASSFILE, then ~/.pgpass).
    public var passwordFile: String?
    /// The certificate authorities to trust for verify-ca and verify-full
    /// (`sslrootcert=`, a PEM file, absolute); nil for the system's.
    public var sslRootCertificate: String?
    /// Shown in `pg_stat_activity`; nil sends none.
    public var applicationName: String?
    /// How long to wait for the server to answer; nil for postgres-nio's
    /// default (ten seconds).
    public var connectTimeout: Duration?

    public init(
        host: Host, user: String, database: String, sslMode: SSLMode = .prefer,
        passwordFile: String? = nil, sslRootCertificate: String? = nil,
        applicationName: String? = nil, connectTimeout: Duration? = nil
    ) {
        self.host = host
        self.user = user
        self.database = database
        self.sslMode = sslMode
        self.passwordFile = passwordFile
        self.sslRootCertificate = sslRootCertificate
        self.applicationName = applicationName
        self.connectTimeout = connectTimeout
    }

    /// The location as a normalized URL, every default written out, for
    /// logs and `server.status`: `postgres://todod@127.0.0.1:5432/list?sslmode=prefer`,
    /// or `postgres://todod@/list?host=/run/postgresql&port=5432` for a
    /// socket. It reads back to an equal location. It holds no secret,
    /// because a location has none to hold.
    public var description: String {
        let pathCharacters = Set("/".utf8)
        var query: [(String, String)] = []
        let authorityHost: String
        switch host {
        case .tcp(let name, let port):
            authorityHost = name.contains(":")
                ? "[\(PercentEncoding.encode(name, alsoAllowed: Set(":".utf8)))]:\(port)"
                : "\(PercentEncoding.encode(name)):\(port)"
            query.append(("sslmode", sslMode.rawValue))
        case .unixSocket(let directory, let port):
            authorityHost = ""
            query.append(("host", PercentEncoding.encode(directory, alsoAllowed: pathCharacters)))
            query.append(("port", String(port)))
            if sslMode != .prefer { query.append(("sslmode", sslMode.rawValue)) }
        }
        if let sslRootCertificate {
            query.append(("sslrootcert", PercentEncoding.encode(sslRootCertificate, alsoAllowed: pathCharacters)))
        }
        if let passwordFile {
            query.append(("passfile", PercentEncoding.encode(passwordFile, alsoAllowed: pathCharacters)))
        }
        if let applicationName { query.append(("application_name", PercentEncoding.encode(applicationName))) }
        if let connectTimeout { query.append(("connect_timeout", String(connectTimeout.components.seconds))) }
        return "postgres://\(PercentEncoding.encode(user))@\(authorityHost)/\(PercentEncoding.encode(database))"
            + "?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }
}
