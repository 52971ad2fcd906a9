import Foundation
import Testing
@testable import TodoPostgres

/// The pgpass file as libpq reads it: the password psql would find is the
/// one todod finds, and a file others can read is not used.
@Suite struct PasswordFileTests {
    // MARK: Parsing and matching

    @Test func theFieldsOfALine() {
        let file = PasswordFile(parsing: "db.example:5432:todo:alice:s3cret\n")
        #expect(
            file.entries == [
                .init(host: .exactly("db.example"), port: .exactly("5432"), database: .exactly("todo"), user: .exactly("alice"), password: "s3cret")
            ]
        )
        #expect(file.password(host: "db.example", port: 5432, database: "todo", user: "alice") == "s3cret")
        #expect(file.password(host: "db.example", port: 5433, database: "todo", user: "alice") == nil)
        #expect(file.password(host: "other.example", port: 5432, database: "todo", user: "alice") == nil)
        #expect(file.password(host: "db.example", port: 5432, database: "other", user: "alice") == nil)
        #expect(file.password(host: "db.example", port: 5432, database: "todo", user: "bob") == nil)
    }

    @Test func aStarMatchesAnything() {
        let file = PasswordFile(parsing: "*:*:*:*:any\n")
        #expect(file.entries.first?.host == .any)
        #expect(file.password(host: "h", port: 1, database: "d", user: "u") == "any")
        let someFields = PasswordFile(parsing: "db.example:*:*:alice:hers\n")
        #expect(someFields.password(host: "db.example", port: 6000, database: "x", user: "alice") == "hers")
        #expect(someFields.password(host: "db.example", port: 6000, database: "x", user: "bob") == nil)
    }

    @Test func anEscapedOrPartialStarIsItself() {
        let file = PasswordFile(parsing: "\\*:*:*:*:escaped\na*:*:*:*:partial\n")
        #expect(file.entries.map(\.host) == [.exactly("*"), .exactly("a*")])
        #expect(file.password(host: "h", port: 1, database: "d", user: "u") == nil)
        #expect(file.password(host: "*", port: 1, database: "d", user: "u") == "escaped")
        #expect(file.password(host: "a*", port: 1, database: "d", user: "u") == "partial")
    }

    @Test func escapedColonsAndBackslashes() {
        let file = PasswordFile(parsing: #"\:\:1:5432:to\\do:al\:ice:pa\:ss\\wo\rd"# + "\n")
        #expect(file.password(host: "::1", port: 5432, database: #"to\do"#, user: "al:ice") == #"pa:ss\word"#)
    }

    @Test func thePasswordEndsAtAnUnescapedColon() {
        let file = PasswordFile(parsing: "h:1:d:u:first:second\nh:2:d:u:\n")
        #expect(file.password(host: "h", port: 1, database: "d", user: "u") == "first")
        // An empty password is a password, and the first match.
        #expect(file.password(host: "h", port: 2, database: "d", user: "u") == "")
    }

    @Test func commentsBlankShortAndCRLFLines() {
        let text = """
            # a comment: h:1:d:u:commented
            \r
            h:1:d:u
            h:1:d
             #h:1:d:u:spaced
            h:1:d:u:found\r
            h:1:d:u:later
            """
        let file = PasswordFile(parsing: text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(file.entries.count == 3)
        // Only a '#' at the very start makes a comment.
        #expect(file.entries[0].host == .exactly(" #h"))
        #expect(file.password(host: "h", port: 1, database: "d", user: "u") == "found")
        #expect(PasswordFile(parsing: text).password(host: "h", port: 1, database: "d", user: "u") == "found")
    }

    @Test func theFirstMatchingLineWins() {
        let file = PasswordFile(parsing: "h:1:d:u:specific\n*:*:*:u:general\nh:1:d:u:never\n")
        #expect(file.password(host: "h", port: 1, database: "d", user: "u") == "specific")
        #expect(file.password(host: "g", port: 1, database: "d", user: "u") == "general")
    }

    @Test func theFirstLineWinsWhicheverHostNameItMatches() {
        let file = PasswordFile(parsing: "localhost:5432:d:u:by-name\n/run/postgresql:5432:d:u:by-directory\n")
        #expect(file.password(hosts: ["/run/postgresql", "localhost"], port: 5432, database: "d", user: "u") == "by-name")
        #expect(file.password(hosts: ["/run/postgresql"], port: 5432, database: "d", user: "u") == "by-directory")
    }

    @Test func nonASCIIPasswords() {
        let file = PasswordFile(parsing: "h:1:d:ü:pässwörd🔑\n")
        #expect(file.password(host: "h", port: 1, database: "d", user: "ü") == "pässwörd🔑")
    }

    // MARK: Where the file is

    @Test func theFileIsNamedThenPGPASSFILEThenHome() {
        let environment = ["PGPASSFILE": "/etc/pgpass", "HOME": "/home/me"]
        #expect(PasswordFile.locate(explicit: "/x/pass", environment: environment) == "/x/pass")
        #expect(PasswordFile.locate(explicit: nil, environment: environment) == "/etc/pgpass")
        #expect(PasswordFile.locate(explicit: nil, environment: ["HOME": "/home/me"]) == "/home/me/.pgpass")
        #expect(PasswordFile.locate(explicit: nil, environment: ["HOME": "/home/me/", "PGPASSFILE": ""]) == "/home/me/.pgpass")
        #expect(PasswordFile.locate(explicit: nil, environment: [:]) == nil)
    }

    // MARK: Socket connections

    @Test func theDefaultSocketIsAlsoLocalhost() throws {
        let defaultSocket = PostgresLocation(host: .unixSocket(directory: "/run/postgresql", port: 5432), user: "u", database: "d")
        #expect(defaultSocket.passwordFileHostNames == ["/run/postgresql", "localhost"])
        let debianSpelling = PostgresLocation(host: .unixSocket(directory: "/var/run/postgresql", port: 5432), user: "u", database: "d")
        #expect(debianSpelling.passwordFileHostNames == ["/var/run/postgresql", "localhost"])
        let otherSocket = PostgresLocation(host: .unixSocket(directory: "/tmp", port: 5432), user: "u", database: "d")
        #expect(otherSocket.passwordFileHostNames == ["/tmp"])
        let tcp = PostgresLocation(host: .tcp(name: "localhost", port: 5432), user: "u", database: "d")
        #expect(tcp.passwordFileHostNames == ["localhost"])
    }

    @Test func aSocketConnectionFindsItsPassword() throws {
        let file = try TemporaryFile(
            "localhost:5432:todo:alice:local\n/tmp/pg:5433:todo:alice:in-tmp\n", mode: 0o600
        )
        defer { file.remove() }
        let environment = ["HOME": "/nonexistent"]
        var location = PostgresLocation(
            host: .unixSocket(directory: "/run/postgresql", port: 5432), user: "alice", database: "todo",
            passwordFile: file.path
        )
        #expect(try location.password(environment: environment) == ("local", nil))
        location.host = .unixSocket(directory: "/tmp/pg", port: 5433)
        #expect(try location.password(environment: environment) == ("in-tmp", nil))
        // Another socket directory is not localhost.
        location.host = .unixSocket(directory: "/tmp/pg", port: 5432)
        #expect(try location.password(environment: environment) == (nil, nil))
    }

    // MARK: The file's mode

    @Test func aFileOthersCanReadIsIgnoredWithAReason() throws {
        let file = try TemporaryFile("*:*:*:*:exposed\n", mode: 0o644)
        defer { file.remove() }
        guard case .ignored(let reason) = try PasswordFile.load(path: file.path) else {
            Issue.record("a 0644 file was used")
            return
        }
        #expect(reason.contains(file.path))
        #expect(reason.contains("group or world access (mode 0644)"))
        #expect(reason.contains("0600"))
        #expect(!reason.contains("exposed"))

        let location = PostgresLocation(host: .tcp(name: "h", port: 5432), user: "u", database: "d", passwordFile: file.path)
        let (password, warning) = try location.password(environment: [:])
        #expect(password == nil)
        #expect(warning == reason)
    }

    @Test(arguments: [0o600, 0o400])
    func aPrivateFileIsRead(mode: Int) throws {
        let file = try TemporaryFile("# mine\nh:5432:d:u:private\n", mode: mode)
        defer { file.remove() }
        #expect(try PasswordFile.load(path: file.path) == .loaded(PasswordFile(parsing: "h:5432:d:u:private")))
        let location = PostgresLocation(host: .tcp(name: "h", port: 5432), user: "u", database: "d")
        let (password, warning) = try location.password(environment: ["PGPASSFILE": file.path])
        #expect(password == "private")
        #expect(warning == nil)
    }

    @Test func theModeCheck() {
        let regular = UInt32(S_IFREG)
        #expect(PasswordFile.ignoreReason(path: "/p", mode: regular | 0o600) == nil)
        #expect(PasswordFile.ignoreReason(path: "/p", mode: regular | 0o400) == nil)
        #expect(PasswordFile.ignoreReason(path: "/p", mode: regular | 0o700) == nil)
        #expect(PasswordFile.ignoreReason(path: "/p", mode: regular | 0o640)?.contains("(mode 0640)") == true)
        #expect(PasswordFile.ignoreReason(path: "/p", mode: regular | 0o602)?.contains("(mode 0602)") == true)
        #expect(PasswordFile.ignoreReason(path: "/p", mode: UInt32(S_IFDIR) | 0o700)?.contains("not a plain file") == true)
    }

    @Test func aDirectoryIsNotAPasswordFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todod-pgpass-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try PasswordFile.load(path: directory) == .ignored(reason: "password file \"\(directory)\" is not a plain file, so it is not used"))
    }

    @Test func aMissingFileIsNoPasswordAndAWarningOnlyWhenNamed() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("todod-missing-\(UUID().uuidString)").path
        #expect(try PasswordFile.load(path: missing) == .absent)
        var location = PostgresLocation(host: .tcp(name: "h", port: 5432), user: "u", database: "d")
        // ~/.pgpass missing: nothing to say.
        #expect(try location.password(environment: ["HOME": missing]) == (nil, nil))
        #expect(try location.password(environment: [:]) == (nil, nil))
        // Named and missing: most likely a typo.
        #expect(try location.password(environment: ["PGPASSFILE": missing]) == (nil, "password file \"\(missing)\" does not exist"))
        location.passwordFile = missing
        #expect(try location.password(environment: [:]) == (nil, "password file \"\(missing)\" does not exist"))
    }

    @Test func aFileThatIsNotUTF8IsAnError() throws {
        let file = try TemporaryFile(Data([0x68, 0x3A, 0xFF, 0x0A]), mode: 0o600)
        defer { file.remove() }
        #expect(throws: PasswordFileError.notText(path: file.path)) { try PasswordFile.load(path: file.path) }
    }
}

/// A file in the temporary folder with the given mode, set after writing
/// so that the umask does not change it.
private struct TemporaryFile {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("todod-pgpass-\(UUID().uuidString)").path

    init(_ text: String, mode: Int) throws {
        try self.init(Data(text.utf8), mode: mode)
    }

    init(_ data: Data, mode: Int) throws {
        try data.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
