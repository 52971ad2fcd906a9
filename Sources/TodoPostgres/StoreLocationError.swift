/// Why a `--store` value (or todod.conf's `store =`) names no store todod
/// can open. Each message says what was wrong and shows a value that works,
/// because the person reading it is at a command line or editing todod.conf,
/// and the message is all they see before todod exits.
///
/// No case carries a password: a URL with one is refused before its parts
/// are kept, so no message (and no log line built from one) can repeat it.
public enum StoreLocationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The value is empty.
    case empty
    /// No `scheme:` in front, such as a bare file path; carries the value.
    case noScheme(String)
    /// A scheme todod does not know, such as `mysql`; carries the scheme.
    case unknownScheme(String)
    /// `sqlite:` with nothing after it.
    case missingSQLitePath
    /// `sqlite:~/…`: nothing expands `~` here, so it would name a folder called `~`.
    case sqliteTildePath(String)
    /// `sqlite://host/…`: SQLite has files, not hosts; carries the value.
    case sqliteHost(String)
    /// `postgres:` without `//`; carries the value.
    case postgresWithoutSlashes(String)
    /// A password as `user:password@` or as `password=`.
    case passwordInURL
    /// A ':' before the host and an '@' after it, without one in the
    /// authority: a password holding '/' or '?' looks like this, so it is
    /// refused rather than read as host and port.
    case possiblePasswordInURL
    /// A port that is not a number from 1 to 65535; carries the text.
    case badPort(String)
    /// An sslmode that is none of libpq's six; carries the text.
    case unknownSSLMode(String)
    /// A connect_timeout that is not a whole number of seconds above 0; carries the text.
    case badConnectTimeout(String)
    /// A query parameter todod does not take; carries its name.
    case unknownParameter(String)
    /// A query parameter given twice; carries its name.
    case repeatedParameter(String)
    /// A query part without `=`; carries the part.
    case malformedParameter(String)
    /// A `%` not followed by two hexadecimal digits, or escapes that decode to
    /// bytes that are not UTF-8 or hold a NUL; carries the raw part.
    case badPercentEncoding(String)
    /// Several hosts separated by commas (libpq's failover list); carries the host text.
    case severalHosts(String)
    /// An IPv6 address without its brackets, or a bracket left open; carries the host text.
    case badIPv6Host(String)
    /// A socket directory that is not an absolute path; carries the directory.
    case relativeSocketDirectory(String)
    /// No user in the URL, no PGUSER, and no name for the process's user.
    case unknownUserName

    /// The message for a person: what was wrong, and a value that works.
    public var description: String {
        let example = "postgres://todod@db.example:5432/todo"
        switch self {
        case .empty:
            return "the store is empty: give sqlite:PATH, such as sqlite:/home/me/todo.sqlite, "
                + "or postgres://USER@HOST:PORT/DATABASE, such as \(example)"
        case .noScheme(let text):
            return "the store '\(text)' does not say what it is: write sqlite:\(text) for an SQLite file, "
                + "or a PostgreSQL URL such as \(example)"
        case .unknownScheme(let scheme):
            return "unknown store '\(scheme):': todod stores its list in sqlite:PATH, such as sqlite:/home/me/todo.sqlite, "
                + "or in postgres://USER@HOST:PORT/DATABASE (or postgresql://…), such as \(example)"
        case .missingSQLitePath:
            return "sqlite: needs the database file's path, such as sqlite:/home/me/todo.sqlite, "
                + "or sqlite:todo.sqlite for a file in the current directory"
        case .sqliteTildePath(let path):
            return "'~' is not expanded in sqlite:\(path): write the whole path, such as sqlite:/home/me/todo.sqlite"
        case .sqliteHost(let text):
            return "'\(text)' names a host, but sqlite: takes a file path, such as sqlite:/path/to/todo.sqlite "
                + "(or sqlite:///path/to/todo.sqlite)"
        case .postgresWithoutSlashes(let text):
            return "'\(text)' is not a PostgreSQL URL: it starts with postgres:// (or postgresql://), such as \(example), "
                + "or postgres:///todo for the local server's socket"
        case .passwordInURL:
            return "a password in the store URL is refused: it would show in `ps` and in logs; "
                + "put it in ~/.pgpass or name a file with passfile=, such as \(example)?passfile=/home/me/.todod.pgpass"
        case .possiblePasswordInURL:
            return "the store URL has a ':' before the host part ends and an '@' after it, so it may hold a password, "
                + "which is refused: it would show in `ps` and in logs; put it in ~/.pgpass or name a file with passfile=. "
                + "If there is no password, write that '@' as %40, such as \(example)?application_name=me%40box"
        case .badPort(let text):
            return "the port must be a number from 1 to 65535, not '\(text)', such as \(example)"
        case .unknownSSLMode(let text):
            return "unknown sslmode '\(text)': it is disable, allow, prefer (the default), require, verify-ca or verify-full, "
                + "such as \(example)?sslmode=verify-full"
        case .badConnectTimeout(let text):
            return "connect_timeout is a whole number of seconds, 1 or more, not '\(text)', such as \(example)?connect_timeout=10"
        case .unknownParameter(let name):
            return "unknown parameter '\(name)' in the store URL: todod takes host, port, user, dbname, sslmode, "
                + "sslrootcert, passfile, application_name and connect_timeout, such as \(example)?sslmode=require"
        case .repeatedParameter(let name):
            return "the parameter '\(name)' is given twice in the store URL: give it once, such as \(example)?\(name)=…"
        case .malformedParameter(let part):
            return "'\(part)' in the store URL's query is not NAME=VALUE: write it such as \(example)?sslmode=require&connect_timeout=10"
        case .badPercentEncoding(let part):
            return "'\(part)' in the store URL has a bad percent escape: '%' is followed by two hexadecimal digits "
                + "(%25 for '%' itself, %40 for '@'), and they must spell UTF-8 text without NUL, "
                + "such as postgres://me%40example.org@db.example/todo"
        case .severalHosts(let hosts):
            return "'\(hosts)' lists several hosts, but todod connects to one: name a single host, such as \(example)"
        case .badIPv6Host(let host):
            return "'\(host)' is not a host todod can read: an IPv6 address is written in brackets, "
                + "such as postgres://todod@[::1]:5432/todo"
        case .relativeSocketDirectory(let directory):
            return "the socket directory '\(directory)' must be an absolute path, "
                + "such as postgres:///todo?host=/run/postgresql"
        case .unknownUserName:
            return "no PostgreSQL user: the store URL names none, PGUSER is not set, and this process's user has no name; "
                + "name one, such as \(example)"
        }
    }
}
