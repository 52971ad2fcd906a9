import PostgresNIO
import Testing
@testable import TodoPostgres

/// `--store` values as a person writes them: each form reads to the
/// location it means, with libpq's defaults, and each mistake to a message
/// that says what is wrong and shows what works.
@Suite struct StoreLocationTests {
    static let environment = ["PGUSER": "todod", "HOME": "/home/me"]

    /// Parses with a fixed current directory, environment and system user.
    private func parse(
        _ text: String, environment: [String: String] = Self.environment, systemUser: String? = "osuser"
    ) throws(StoreLocationError) -> StoreLocation {
        try StoreLocation(parsing: text, currentDirectory: "/home/me/work", environment: environment, systemUserName: { systemUser })
    }

    private func postgres(_ text: String, environment: [String: String] = Self.environment) throws -> PostgresLocation {
        guard case .postgres(let location) = try parse(text, environment: environment) else {
            Issue.record("\(text) is not a PostgreSQL location")
            throw StoreLocationError.empty
        }
        return location
    }

    // MARK: sqlite:

    @Test(arguments: [
        ("sqlite:/var/lib/todod/todo.sqlite", "/var/lib/todod/todo.sqlite"),
        ("sqlite:todo.sqlite", "/home/me/work/todo.sqlite"),
        ("sqlite:data/todo.sqlite", "/home/me/work/data/todo.sqlite"),
        ("sqlite:./data//todo.sqlite", "/home/me/work/data/todo.sqlite"),
        ("sqlite:../todo.sqlite", "/home/me/work/../todo.sqlite"),
        ("sqlite:///var/lib/todo.sqlite", "/var/lib/todo.sqlite"),
        ("SQLite:/x/todo.sqlite", "/x/todo.sqlite"),
        // Taken as written: a file name may hold a '%'.
        ("sqlite:/tmp/a%20b.sqlite", "/tmp/a%20b.sqlite"),
    ])
    func sqlitePaths(text: String, path: String) throws {
        let location = try parse(text)
        #expect(location == .sqlite(path: path))
        #expect(location.description == "sqlite:\(path)")
        #expect(try parse(location.description) == location)
    }

    @Test func aRelativePathIsResolvedAgainstTheGivenDirectory() throws {
        let location = try StoreLocation(parsing: "sqlite:todo.sqlite", currentDirectory: "/srv/", environment: [:])
        #expect(location == .sqlite(path: "/srv/todo.sqlite"))
    }

    // MARK: postgres:// over TCP

    @Test func aFullTCPURL() throws {
        let location = try postgres("postgres://todod@127.0.0.1:5432/list")
        #expect(location == PostgresLocation(host: .tcp(name: "127.0.0.1", port: 5432), user: "todod", database: "list"))
        #expect(location.sslMode == .prefer)
        #expect(location.description == "postgres://todod@127.0.0.1:5432/list?sslmode=prefer")
        #expect(location.host.socketPath == nil)
    }

    @Test(arguments: ["postgresql://", "POSTGRES://", "PostgreSQL://"])
    func bothSchemesInAnyCase(scheme: String) throws {
        let location = try postgres("\(scheme)alice@db.example:6000/todo")
        #expect(location == PostgresLocation(host: .tcp(name: "db.example", port: 6000), user: "alice", database: "todo"))
    }

    @Test func thePortDefaultsTo5432() throws {
        #expect(try postgres("postgres://alice@db.example/todo").host == .tcp(name: "db.example", port: 5432))
        #expect(try postgres("postgres://alice@db.example:/todo").host == .tcp(name: "db.example", port: 5432))
    }

    @Test func localhostIsTCP() throws {
        #expect(try postgres("postgres://localhost/todo").host == .tcp(name: "localhost", port: 5432))
    }

    // MARK: Unix sockets

    @Test func noHostMeansDebiansSocketDirectory() throws {
        for text in ["postgres://", "postgres:///", "postgres:///todo", "postgres://alice@/todo", "postgres://:5433/todo"] {
            let location = try postgres(text)
            guard case .unixSocket(let directory, _) = location.host else {
                Issue.record("\(text): \(location.host)")
                continue
            }
            #expect(directory == "/run/postgresql")
        }
        let location = try postgres("postgres://")
        #expect(location == PostgresLocation(host: .unixSocket(directory: "/run/postgresql", port: 5432), user: "todod", database: "todod"))
        #expect(location.host.socketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(try postgres("postgres://:5433/todo").host.socketPath == "/run/postgresql/.s.PGSQL.5433")
    }

    @Test func aSocketDirectoryInTheQuery() throws {
        let location = try postgres("postgres:///todo?host=/run/postgresql")
        #expect(location == PostgresLocation(host: .unixSocket(directory: "/run/postgresql", port: 5432), user: "todod", database: "todo"))
        #expect(location.description == "postgres://todod@/todo?host=/run/postgresql&port=5432")
    }

    @Test func aPercentEncodedSocketDirectoryAsTheHost() throws {
        let location = try postgres("postgres://%2Fvar%2Frun%2Fpostgresql:5433/todo")
        #expect(location.host == .unixSocket(directory: "/var/run/postgresql", port: 5433))
        #expect(location.host.socketPath == "/var/run/postgresql/.s.PGSQL.5433")
    }

    @Test func theSocketPortComesFromTheQueryToo() throws {
        let location = try postgres("postgres:///todo?host=/tmp/pg/&port=6543")
        #expect(location.host == .unixSocket(directory: "/tmp/pg", port: 6543))
        #expect(location.host.socketPath == "/tmp/pg/.s.PGSQL.6543")
    }

    // MARK: IPv6

    @Test func anIPv6HostInBrackets() throws {
        let location = try postgres("postgres://todod@[::1]:6543/todo")
        #expect(location.host == .tcp(name: "::1", port: 6543))
        #expect(location.description == "postgres://todod@[::1]:6543/todo?sslmode=prefer")
        #expect(try postgres("postgres://[2001:db8::7]/todo").host == .tcp(name: "2001:db8::7", port: 5432))
    }

    @Test func anIPv6ZoneIsPercentDecoded() throws {
        let location = try postgres("postgres://[fe80::1%25eth0]:5432/todo")
        #expect(location.host == .tcp(name: "fe80::1%eth0", port: 5432))
        #expect(location.description == "postgres://todod@[fe80::1%25eth0]:5432/todo?sslmode=prefer")
        #expect(try postgres(location.description) == location)
    }

    // MARK: Percent-decoding

    @Test func everyPartIsPercentDecoded() throws {
        let location = try postgres(
            "postgres://me%40example.org@db%2Dprimary.example:5432/my%20list"
                + "?application_name=todo%20daemon&passfile=%2Fsecrets%2Fpg%26pass&sslm%6Fde=requir%65"
        )
        #expect(location.user == "me@example.org")
        #expect(location.host == .tcp(name: "db-primary.example", port: 5432))
        #expect(location.database == "my list")
        #expect(location.applicationName == "todo daemon")
        #expect(location.passwordFile == "/secrets/pg&pass")
        #expect(location.sslMode == .require)
        // An encoded ':' in the user is part of the name, not a password.
        #expect(try postgres("postgres://a%3Ab@db.example/todo").user == "a:b")
    }

    // MARK: Defaults from the environment

    @Test func theUserComesFromPGUSERThenTheSystem() throws {
        #expect(try postgres("postgres://db.example").user == "todod")
        guard case .postgres(let location) = try parse("postgres://db.example", environment: [:], systemUser: "osuser") else {
            Issue.record("not postgres")
            return
        }
        #expect(location.user == "osuser")
        #expect(location.database == "osuser")
        // An empty PGUSER is not a user name.
        guard case .postgres(let fromEmpty) = try parse("postgres://db.example", environment: ["PGUSER": ""]) else {
            Issue.record("not postgres")
            return
        }
        #expect(fromEmpty.user == "osuser")
    }

    @Test func theSystemUserIsThisProcesssUser() throws {
        func parse() throws -> StoreLocation {
            try StoreLocation(parsing: "postgres://db.example", currentDirectory: "/", environment: [:])
        }
        guard let name = PostgresLocation.systemUserName() else {
            // A user id with no passwd entry, as in some containers.
            #expect(throws: StoreLocationError.unknownUserName) { try parse() }
            return
        }
        #expect(try parse() == .postgres(PostgresLocation(host: .tcp(name: "db.example", port: 5432), user: name, database: name)))
    }

    @Test func theDatabaseDefaultsToTheUser() throws {
        #expect(try postgres("postgres://alice@db.example").database == "alice")
        #expect(try postgres("postgres://db.example/?user=bob").database == "bob")
    }

    // MARK: Query parameters

    @Test func queryParametersOverrideTheURLsParts() throws {
        let location = try postgres("postgres://alice@h1:1/db1?host=h2&port=2&user=bob&dbname=db2")
        #expect(location == PostgresLocation(host: .tcp(name: "h2", port: 2), user: "bob", database: "db2"))
    }

    @Test(arguments: PostgresLocation.SSLMode.allCases)
    func everySSLMode(mode: PostgresLocation.SSLMode) throws {
        let location = try postgres("postgres://db.example/todo?sslmode=\(mode.rawValue)")
        #expect(location.sslMode == mode)
        #expect(location.description == "postgres://todod@db.example:5432/todo?sslmode=\(mode.rawValue)")
    }

    @Test func theOptionalParameters() throws {
        let location = try postgres(
            "postgres://db.example/todo?connect_timeout=7&application_name=todod&passfile=secrets/pgpass&sslrootcert=ca.pem"
        )
        #expect(location.connectTimeout == .seconds(7))
        #expect(location.applicationName == "todod")
        #expect(location.passwordFile == "/home/me/work/secrets/pgpass")
        #expect(location.sslRootCertificate == "/home/me/work/ca.pem")
        #expect(
            location.description
                == "postgres://todod@db.example:5432/todo?sslmode=prefer&sslrootcert=/home/me/work/ca.pem"
                + "&passfile=/home/me/work/secrets/pgpass&application_name=todod&connect_timeout=7"
        )
        #expect(try postgres("postgres://db.example/todo?sslrootcert=system").sslRootCertificate == nil)
        #expect(try postgres("postgres://db.example/todo?passfile=/etc/todod/pgpass").passwordFile == "/etc/todod/pgpass")
    }

    @Test func anEmptyValueIsAParameterNotGiven() throws {
        let location = try postgres("postgres://db.example/todo?sslmode=&port=&application_name=&")
        #expect(location == PostgresLocation(host: .tcp(name: "db.example", port: 5432), user: "todod", database: "todo"))
    }

    @Test(arguments: [
        "postgres://todod@127.0.0.1:5432/list",
        "postgres://me%40example.org@[::1]:6543/my%20list?sslmode=verify-full&application_name=a%26b%3Dc",
        "postgres:///todo?host=/run/postgresql",
        "postgres://x@/d?host=/tmp/a%20b&port=7000&sslmode=require&passfile=/p/q&connect_timeout=3",
        "postgres://u@h/d?sslrootcert=/etc/ssl/ca.pem&sslmode=verify-ca",
    ])
    func theDescriptionReadsBackToTheSameLocation(text: String) throws {
        let location = try parse(text)
        #expect(try parse(location.description) == location)
        #expect(try parse(location.description).description == location.description)
    }

    // MARK: Errors

    @Test func aPasswordIsRefused() throws {
        for text in [
            "postgres://u:secret@db.example/todo", "postgres://u:@db.example/todo",
            "postgresql://u:s%3Acret@[::1]/todo", "postgres://u@db.example/todo?password=secret",
            "postgres://db.example/todo?pass%77ord=secret",
        ] {
            #expect(throws: StoreLocationError.passwordInURL) { try parse(text) }
        }
        // A '/' or '?' in a password, not encoded, ends the authority early:
        // refused, rather than read as a host and a port that a log would show.
        for text in [
            "postgres://u:pa/ss@db.example/todo", "postgres://u:1234/5@db.example/todo",
            "postgres://u:pa?ss@db.example/todo", "postgres://[u:pa/ss@db.example/todo",
        ] {
            #expect(throws: StoreLocationError.possiblePasswordInURL) { try parse(text) }
        }
        let message = StoreLocationError.passwordInURL.description
        #expect(
            message.hasPrefix(
                "a password in the store URL is refused: it would show in `ps` and in logs; "
                    + "put it in ~/.pgpass or name a file with passfile="
            )
        )
        #expect(!message.contains("secret"))
    }

    @Test(arguments: [
        ("", StoreLocationError.empty),
        ("/var/lib/todo.sqlite", .noScheme("/var/lib/todo.sqlite")),
        ("todo.sqlite", .noScheme("todo.sqlite")),
        ("mysql://db/todo", .unknownScheme("mysql")),
        ("sqlite:", .missingSQLitePath),
        ("sqlite:~/todo.sqlite", .sqliteTildePath("~/todo.sqlite")),
        ("sqlite://host/todo.sqlite", .sqliteHost("sqlite://host/todo.sqlite")),
        ("postgres:todo", .postgresWithoutSlashes("postgres:todo")),
        ("postgres://db.example:abc/todo", .badPort("abc")),
        ("postgres://db.example:0/todo", .badPort("0")),
        ("postgres://db.example:65536/todo", .badPort("65536")),
        ("postgres://db.example/todo?port=+5", .badPort("+5")),
        ("postgres://db.example/todo?sslmode=strict", .unknownSSLMode("strict")),
        ("postgres://db.example/todo?sslmode=Require", .unknownSSLMode("Require")),
        ("postgres://db.example/todo?connect_timeout=0", .badConnectTimeout("0")),
        ("postgres://db.example/todo?connect_timeout=-1", .badConnectTimeout("-1")),
        ("postgres://db.example/todo?connect_timeout=ten", .badConnectTimeout("ten")),
        ("postgres://db.example/todo?target_session_attrs=any", .unknownParameter("target_session_attrs")),
        ("postgres://db.example/todo?sslmode=require&sslmode=disable", .repeatedParameter("sslmode")),
        ("postgres://db.example/todo?sslmode", .malformedParameter("sslmode")),
        ("postgres://db.example/todo?=x", .malformedParameter("=x")),
        ("postgres://db.example/to%zzdo", .badPercentEncoding("to%zzdo")),
        ("postgres://db.example/todo%4", .badPercentEncoding("todo%4")),
        ("postgres://db.example/%C3", .badPercentEncoding("%C3")),
        ("postgres://db.example/a%00b", .badPercentEncoding("a%00b")),
        ("postgres://h1,h2/todo", .severalHosts("h1,h2")),
        ("postgres:///todo?host=h1%2Ch2", .severalHosts("h1,h2")),
        ("postgres://::1/todo", .badIPv6Host("::1")),
        ("postgres://[::1/todo", .badIPv6Host("[::1")),
        ("postgres://[::1]x/todo", .badIPv6Host("[::1]x")),
        ("postgres://[]:5432/todo", .badIPv6Host("[]:5432")),
        ("postgres:///todo?host=run/postgresql", .relativeSocketDirectory("run/postgresql")),
    ])
    func mistakes(text: String, error: StoreLocationError) {
        #expect(throws: error) { try parse(text) }
    }

    /// An '@' after the authority is fine when nothing before it could be a password.
    @Test func anAtSignInTheQuery() throws {
        #expect(try postgres("postgres://db.example/todo?application_name=me@box").applicationName == "me@box")
        #expect(try postgres("postgres://[::1]:5432/todo?application_name=me@box").applicationName == "me@box")
        #expect(try postgres("postgres:///todo?host=/run/postgresql&application_name=me@box").applicationName == "me@box")
        #expect(throws: StoreLocationError.possiblePasswordInURL) {
            try parse("postgres://db.example:5432/todo?application_name=me@box")
        }
        #expect(try postgres("postgres://db.example:5432/todo?application_name=me%40box").applicationName == "me@box")
    }

    @Test func noUserNameAtAll() {
        #expect(throws: StoreLocationError.unknownUserName) {
            try parse("postgres://db.example/todo", environment: [:], systemUser: nil)
        }
    }

    /// Each message names what was wrong and shows a store that works.
    @Test(arguments: [
        (StoreLocationError.empty, "the store is empty"),
        (.noScheme("/x/todo.sqlite"), "write sqlite:/x/todo.sqlite"),
        (.unknownScheme("mysql"), "unknown store 'mysql:'"),
        (.missingSQLitePath, "sqlite: needs the database file's path"),
        (.sqliteTildePath("~/todo.sqlite"), "'~' is not expanded in sqlite:~/todo.sqlite"),
        (.sqliteHost("sqlite://h/x"), "'sqlite://h/x' names a host"),
        (.postgresWithoutSlashes("postgres:todo"), "'postgres:todo' is not a PostgreSQL URL"),
        (.passwordInURL, "a password in the store URL is refused"),
        (.possiblePasswordInURL, "so it may hold a password"),
        (.badPort("abc"), "the port must be a number from 1 to 65535, not 'abc'"),
        (.unknownSSLMode("strict"), "unknown sslmode 'strict'"),
        (.badConnectTimeout("0"), "connect_timeout is a whole number of seconds, 1 or more, not '0'"),
        (.unknownParameter("foo"), "unknown parameter 'foo'"),
        (.repeatedParameter("port"), "the parameter 'port' is given twice"),
        (.malformedParameter("sslmode"), "'sslmode' in the store URL's query is not NAME=VALUE"),
        (.badPercentEncoding("%zz"), "'%zz' in the store URL has a bad percent escape"),
        (.severalHosts("a,b"), "'a,b' lists several hosts"),
        (.badIPv6Host("::1"), "an IPv6 address is written in brackets"),
        (.relativeSocketDirectory("run/pg"), "the socket directory 'run/pg' must be an absolute path"),
        (.unknownUserName, "no PostgreSQL user"),
    ])
    func messages(error: StoreLocationError, saying what: String) {
        #expect(error.description.contains(what))
        #expect(error.description.contains("such as "))
    }

    // MARK: postgres-nio's configuration

    @Test func aTCPConfiguration() throws {
        let location = try postgres("postgres://alice@db.example:6000/todo?connect_timeout=3&application_name=laptop&sslmode=disable")
        let configuration = try location.configuration(password: "pw")
        #expect(configuration.host == "db.example")
        #expect(configuration.port == 6000)
        #expect(configuration.unixSocketPath == nil)
        #expect(configuration.username == "alice")
        #expect(configuration.password == "pw")
        #expect(configuration.database == "todo")
        #expect(!configuration.tls.isAllowed)
        #expect(configuration.options.connectTimeout == .seconds(3))
        #expect(configuration.options.additionalStartupParameters.map { "\($0.0)=\($0.1)" } == ["application_name=laptop"])
    }

    @Test func aSocketConfigurationHasNoTLS() throws {
        let location = try postgres("postgres:///todo?host=/tmp/pg&port=6543&sslmode=verify-full")
        let configuration = try location.configuration(password: nil)
        #expect(configuration.unixSocketPath == "/tmp/pg/.s.PGSQL.6543")
        #expect(configuration.host == nil)
        #expect(configuration.password == nil)
        #expect(!configuration.tls.isAllowed)
        #expect(configuration.options.connectTimeout == .seconds(10))
        // Named todod in pg_stat_activity when the URL names nothing else.
        #expect(configuration.options.additionalStartupParameters.map { "\($0.0)=\($0.1)" } == ["application_name=todod"])
    }

    @Test(arguments: [
        (PostgresLocation.SSLMode.disable, false, false),
        (.allow, true, false), (.prefer, true, false),
        (.require, true, true), (.verifyCA, true, true), (.verifyFull, true, true),
    ])
    func tlsFollowsTheSSLMode(mode: PostgresLocation.SSLMode, allowed: Bool, enforced: Bool) throws {
        var location = PostgresLocation(host: .tcp(name: "db.example", port: 5432), user: "u", database: "d", sslMode: mode)
        let tls = try location.configuration(password: nil).tls
        #expect(tls.isAllowed == allowed)
        #expect(tls.isEnforced == enforced)
        let verification = location.tlsConfiguration?.certificateVerification
        switch mode {
        case .disable: #expect(verification == nil)
        case .allow, .prefer, .require: #expect(verification == CertificateVerification.none)
        case .verifyCA: #expect(verification == .noHostnameVerification)
        case .verifyFull: #expect(verification == .fullVerification)
        }
        location.sslRootCertificate = "/etc/ssl/todod-ca.pem"
        #expect(location.tlsConfiguration?.trustRoots == (mode == .disable ? nil : .file("/etc/ssl/todod-ca.pem")))
    }

    /// As libpq: `require` with root certificates named checks the chain.
    @Test func requireWithARootCertificateChecksTheChain() {
        let location = PostgresLocation(
            host: .tcp(name: "db.example", port: 5432), user: "u", database: "d", sslMode: .require,
            sslRootCertificate: "/etc/ssl/todod-ca.pem"
        )
        #expect(location.tlsConfiguration?.certificateVerification == .noHostnameVerification)
    }
}
