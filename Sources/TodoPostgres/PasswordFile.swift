/// A pgpass file, read as libpq reads it: where todod's PostgreSQL password
/// comes from, since a store URL may not carry one. Using libpq's file and
/// rules means the password `psql` finds is the one todod finds.
///
/// Each line is `hostname:port:database:username:password`. A field that
/// is exactly `*` matches anything; `\:` and `\\` stand for `:` and `\`.
/// Lines starting with `#` and empty lines are skipped, as are lines with
/// fewer than five fields. The first line that matches wins.
///
/// This type only parses and matches text; reading the file and checking
/// its mode is in `PasswordFile+Reading.swift`.
public struct PasswordFile: Equatable, Sendable {
    /// One line of the file.
    public struct Entry: Equatable, Sendable {
        /// What a field of a line matches.
        public enum Field: Equatable, Sendable {
            /// `*`.
            case any
            /// Anything else, unescaped.
            case exactly(String)

            func matches(_ value: String) -> Bool {
                switch self {
                case .any: true
                case .exactly(let text): text == value
                }
            }
        }

        public var host: Field
        public var port: Field
        public var database: Field
        public var user: Field
        public var password: String

        public init(host: Field, port: Field, database: Field, user: Field, password: String) {
            self.host = host
            self.port = port
            self.database = database
            self.user = user
            self.password = password
        }
    }

    /// The file's usable lines, in order.
    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Parses a pgpass file's text.
    public init(parsing text: String) {
        var entries: [Entry] = []
        for var line in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            while line.last == "\r" { line = line.dropLast() }
            guard let first = line.first, first != "#", let entry = Self.entry(line) else { continue }
            entries.append(entry)
        }
        self.entries = entries
    }

    /// The password of the first line matching the connection, or nil.
    ///
    /// - Parameter host: the host name or IP address as the URL gives it,
    ///   or a socket directory; see ``password(hosts:port:database:user:)``
    ///   for a socket, which `localhost` may also stand for.
    public func password(host: String, port: Int, database: String, user: String) -> String? {
        password(hosts: [host], port: port, database: database, user: user)
    }

    /// The password of the first line matching the connection under any
    /// of `hosts`, or nil. One pass over the lines, so that the first
    /// matching line wins whichever of the names it matches.
    public func password(hosts: [String], port: Int, database: String, user: String) -> String? {
        let portText = String(port)
        return entries.first { entry in
            hosts.contains(where: entry.host.matches) && entry.port.matches(portText)
                && entry.database.matches(database) && entry.user.matches(user)
        }?.password
    }

    /// Where libpq looks for the file: `passfile=` from the URL, else
    /// PGPASSFILE, else `$HOME/.pgpass`; nil when none of them is set.
    public static func locate(explicit: String?, environment: [String: String]) -> String? {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment["PGPASSFILE"], !path.isEmpty { return path }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home.hasSuffix("/") ? home : home + "/") + ".pgpass"
    }

    /// A line's five fields, or nil if it has fewer. The password is the
    /// fifth field, ending at an unescaped `:` if there is one (libpq
    /// ignores anything after it). A `\` at the very end of a field stands
    /// for itself.
    private static func entry(_ line: Substring.UnicodeScalarView) -> Entry? {
        var fields: [(text: String, isStar: Bool)] = []
        var field = String.UnicodeScalarView()
        var raw = 0  // scalars in the field as written, to tell `*` from `\*`
        var iterator = line.makeIterator()
        while fields.count < 5 {
            guard let scalar = iterator.next() else {
                fields.append((String(field), raw == 1 && field.first == "*"))
                break
            }
            raw += 1
            if scalar == "\\" {
                if let escaped = iterator.next() {
                    raw += 1
                    field.append(escaped)
                } else {
                    field.append(scalar)
                }
            } else if scalar == ":" {
                fields.append((String(field), raw == 2 && field.first == "*"))
                field = String.UnicodeScalarView()
                raw = 0
            } else {
                field.append(scalar)
            }
        }
        guard fields.count == 5 else { return nil }
        func match(_ index: Int) -> Entry.Field {
            fields[index].isStar ? .any : .exactly(fields[index].text)
        }
        return Entry(host: match(0), port: match(1), database: match(2), user: match(3), password: fields[4].text)
    }
}
