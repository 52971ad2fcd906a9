import Foundation
import PercentEncoding

/// Reading a `postgres://` URL as libpq does, so a URL that works with
/// `psql` works with todod:
///
///     postgres[ql]://[USER@][HOST][:PORT][/DATABASE][?NAME=VALUE&…]
///
/// Every part is percent-decoded after splitting; an IPv6 host goes in
/// brackets; a host starting with `/` is a socket directory. Query
/// parameters override the parts before them (`postgres:///todo?host=/run/postgresql`),
/// as in libpq. What is left out takes libpq's defaults on Debian: the
/// socket in /run/postgresql, port 5432, the user from PGUSER or the
/// process's user, the database named as the user, sslmode=prefer.
///
/// A password is refused, as `user:password@` or `password=`: a store URL
/// is on the command line or in todod.conf, visible to `ps` and copied into
/// logs, so passwords come from a pgpass file instead.
extension PostgresLocation {
    /// The parameters todod takes in the query, named as libpq names them.
    enum Parameter: String, CaseIterable {
        case host, port, user, dbname, sslmode, sslrootcert, passfile
        case applicationName = "application_name"
        case connectTimeout = "connect_timeout"
    }

    /// Reads the part of a store URL after `postgres://` (or `postgresql://`).
    ///
    /// - Parameters:
    ///   - rest: the URL after its `//`.
    ///   - currentDirectory: what a relative `passfile=` or `sslrootcert=`
    ///     is relative to; they are kept absolute, so a later change of
    ///     directory does not change which file is read.
    ///   - environment: for PGUSER.
    ///   - systemUserName: the process's user name, the last default for the
    ///     user (a parameter so that tests can leave it out).
    init(
        urlAfterSlashes rest: Substring, currentDirectory: String, environment: [String: String],
        systemUserName: () -> String? = PostgresLocation.systemUserName
    ) throws(StoreLocationError) {
        let beforeQuery = rest.prefix { $0 != "?" }
        let queryText = rest.dropFirst(beforeQuery.count).dropFirst()
        let authority = beforeQuery.prefix { $0 != "/" }
        let path = beforeQuery.dropFirst(authority.count).dropFirst()

        // `user:pass/word@host` (a '/' or '?' in the password, not
        // percent-encoded) would read as host `user` with port `pass`, and
        // the password would reach an error message or, when all digits, the
        // logs as a port. A ':' in the authority with an '@' after it is
        // refused rather than guessed at.
        if !authority.contains("@"), Self.mayHidePassword(authority), rest.dropFirst(authority.count).contains("@") {
            throw .possiblePasswordInURL
        }

        var hostText: String?
        var portText: String?
        var user: String?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            guard !userInfo.contains(":") else { throw .passwordInURL }
            user = try Self.decoded(userInfo)
            (hostText, portText) = try Self.hostAndPort(authority[authority.index(after: at)...])
        } else {
            (hostText, portText) = try Self.hostAndPort(authority)
        }
        var database = try Self.decoded(path)

        var sslModeText: String?
        var passwordFile: String?
        var sslRootCertificate: String?
        var applicationName: String?
        var timeoutText: String?
        var given: Set<Parameter> = []
        for part in queryText.split(separator: "&") {
            guard let equals = part.firstIndex(of: "=") else { throw .malformedParameter(String(part)) }
            guard let name = try Self.decoded(part[..<equals]) else { throw .malformedParameter(String(part)) }
            // Before the value is decoded, so that no error about it can repeat a password.
            guard name != "password" else { throw .passwordInURL }
            let value = try Self.decoded(part[part.index(after: equals)...])
            guard let parameter = Parameter(rawValue: name) else { throw .unknownParameter(name) }
            guard given.insert(parameter).inserted else { throw .repeatedParameter(name) }
            // An empty value is a parameter not given, as in libpq.
            guard let value else { continue }
            switch parameter {
            case .host: hostText = value
            case .port: portText = value
            case .user: user = value
            case .dbname: database = value
            case .sslmode: sslModeText = value
            case .sslrootcert: sslRootCertificate = value
            case .passfile: passwordFile = value
            case .applicationName: applicationName = value
            case .connectTimeout: timeoutText = value
            }
        }

        let port = try portText.map(Self.port) ?? Self.defaultPort
        let host: Host
        if let hostText, !hostText.isEmpty {
            guard !hostText.contains(",") else { throw .severalHosts(hostText) }
            if hostText.hasPrefix("/") {
                host = .unixSocket(directory: Self.withoutTrailingSlashes(hostText), port: port)
            } else if hostText.contains("/") {
                throw .relativeSocketDirectory(hostText)
            } else {
                host = .tcp(name: hostText, port: port)
            }
        } else {
            host = .unixSocket(directory: Self.defaultSocketDirectory, port: port)
        }
        let sslMode: SSLMode
        if let sslModeText {
            guard let mode = SSLMode(rawValue: sslModeText) else { throw .unknownSSLMode(sslModeText) }
            sslMode = mode
        } else {
            sslMode = .prefer
        }
        guard
            let userName = user ?? environment["PGUSER"].flatMap({ $0.isEmpty ? nil : $0 }) ?? systemUserName()
        else { throw .unknownUserName }

        self.init(
            host: host, user: userName, database: database ?? userName, sslMode: sslMode,
            passwordFile: passwordFile.map { absolutePath($0, in: currentDirectory) },
            // libpq's sslrootcert=system: the system's authorities, todod's default too.
            sslRootCertificate: sslRootCertificate.flatMap { $0 == "system" ? nil : absolutePath($0, in: currentDirectory) },
            applicationName: applicationName,
            connectTimeout: try timeoutText.map(Self.connectTimeout)
        )
    }

    /// The name of the user this process runs as, from the password
    /// database, as libpq finds it (not $USER, which anyone can set).
    static func systemUserName() -> String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        let text = String(cString: name)
        return text.isEmpty ? nil : text
    }

    /// Whether an authority without '@' could be the front of `user:password`:
    /// it has a ':' and is not a bracketed IPv6 address with an optional port.
    private static func mayHidePassword(_ authority: Substring) -> Bool {
        guard authority.contains(":") else { return false }
        guard authority.hasPrefix("["), let close = authority.firstIndex(of: "]") else { return true }
        let after = authority[authority.index(after: close)...]
        let isPort = after.hasPrefix(":") && after.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
        return !(after.isEmpty || isPort)
    }

    /// `part` percent-decoded; nil when empty, which every part treats as not given.
    private static func decoded(_ part: Substring) throws(StoreLocationError) -> String? {
        guard !part.isEmpty else { return nil }
        // As libpq reads it: UTF-8, and no NUL, which no C string carries.
        guard let bytes = PercentEncoding.decode(part), !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            throw .badPercentEncoding(String(part))
        }
        return text.isEmpty ? nil : text
    }

    /// Splits `HOST[:PORT]` or `[IPV6][:PORT]`, each decoded.
    private static func hostAndPort(_ text: Substring) throws(StoreLocationError) -> (String?, String?) {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .badIPv6Host(String(text)) }
            let inside = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":"), !inside.isEmpty else { throw .badIPv6Host(String(text)) }
            return (try decoded(inside), try decoded(after.dropFirst()))
        }
        guard !text.contains(",") else { throw .severalHosts(String(text)) }
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        switch pieces.count {
        case 1: return (try decoded(text), nil)
        case 2: return (try decoded(pieces[0]), try decoded(pieces[1]))
        default: throw .badIPv6Host(String(text))
        }
    }

    /// A TCP port, or the number in a socket file's name: digits only, 1 to 65535.
    private static func port(_ text: String) throws(StoreLocationError) -> Int {
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let port = Int(text), (1...65535).contains(port)
        else { throw .badPort(text) }
        return port
    }

    /// libpq's connect_timeout, whole seconds. Its 0 ("wait for ever") is
    /// refused: a daemon that hangs on a dead address is worse than one that
    /// says so.
    private static func connectTimeout(_ text: String) throws(StoreLocationError) -> Duration {
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let seconds = Int(text), seconds > 0
        else { throw .badConnectTimeout(text) }
        return .seconds(seconds)
    }

    /// `/run/postgresql/` → `/run/postgresql`, so that pgpass lines and logs see one spelling.
    private static func withoutTrailingSlashes(_ directory: String) -> String {
        var directory = Substring(directory)
        while directory.count > 1, directory.hasSuffix("/") { directory = directory.dropLast() }
        return String(directory)
    }
}
