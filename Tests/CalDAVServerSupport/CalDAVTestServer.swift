import Foundation
import TestSupport

/// A real CalDAV server of its own for one test: Radicale or Xandikos from
/// Debian's packages, on a free port of 127.0.0.1, its data in a fresh
/// `TemporaryDirectory`, with a collection for to-dos made before it is
/// handed out.
///
/// - Radicale: user `me` with a random password (htpasswd, plain), the
///   collection `/me/tasks/` (MKCALENDAR, VTODO only); optionally over TLS
///   with a throwaway CA (`caFile`).
/// - Xandikos: no authentication at all (0.2.8 has none; `user` and
///   `password` are sent and ignored), the collection `/user/calendars/tasks/`.
///
/// The server stops when the object goes, and dies with the test process
/// whatever kills it (see `ServerProcess`). Readiness is awaited by polling the
/// port, then the collection is made over HTTP: nothing waits a fixed time.
public final class CalDAVTestServer: @unchecked Sendable {
    public enum Kind: String, Sendable { case radicale, xandikos }

    public let kind: Kind
    public let port: Int
    /// `http://127.0.0.1:PORT` or `https://…`, no trailing slash.
    public let baseURL: String
    /// The to-do collection's URL, ending in `/`.
    public let collectionURL: String
    public let user: String
    public let password: String
    /// The test CA's certificate (PEM) when the server speaks TLS.
    public let caFile: String?
    /// Whether the server checks `user` and `password` (Radicale does, Xandikos cannot).
    public let authenticates: Bool
    /// Where the server's stdout and stderr go, across restarts.
    public let logFile: String
    public var directory: String { folder.path }

    /// How long a start may take before it counts as failed: generous, for a
    /// loaded machine running many tests at once.
    public static let startTimeout: Duration = .seconds(30)

    private let folder: TemporaryDirectory
    private let setup: ServerSetup
    private let lock = NSLock()
    private var process: ServerProcess?

    /// Radicale, over TLS with a CA of its own when `tls`.
    public static func radicale(tls: Bool = false) throws -> CalDAVTestServer {
        let folder = try TemporaryDirectory("caldav-radicale")
        let password = randomPassword()
        let certificates = tls ? try TestCertificates.make(in: folder.path) : nil
        let setup = try ServerSetup.radicale(
            directory: folder.path, user: "me", password: password, certificates: certificates)
        return try CalDAVTestServer(
            kind: .radicale, folder: folder, setup: setup, user: "me", password: password, caFile: certificates?.caFile)
    }

    /// Xandikos, plain HTTP and no authentication (it supports neither TLS nor
    /// logins itself).
    public static func xandikos() throws -> CalDAVTestServer {
        let folder = try TemporaryDirectory("caldav-xandikos")
        return try CalDAVTestServer(
            kind: .xandikos, folder: folder, setup: .xandikos(directory: folder.path), user: "me",
            password: randomPassword(), caFile: nil)
    }

    private init(kind: Kind, folder: TemporaryDirectory, setup: ServerSetup, user: String, password: String, caFile: String?) throws {
        self.kind = kind
        self.folder = folder
        self.setup = setup
        self.user = user
        self.password = password
        self.caFile = caFile
        self.authenticates = setup.authenticates
        self.logFile = folder.file("server.log")
        let (process, port) = try Self.startOnFreePort(setup: setup, folder: folder, logFile: logFile)
        self.process = process
        self.port = port
        baseURL = "\(caFile == nil ? "http" : "https")://127.0.0.1:\(port)"
        collectionURL = baseURL + setup.collectionPath
        do {
            _ = try runPython(PythonScripts.makeTaskCalendar, purpose: "making the collection")
        } catch {
            process.kill()
            throw error
        }
    }

    deinit {
        process?.stop()
    }

    /// Stops the server (SIGTERM, then SIGKILL) and waits until it is gone.
    public func stop() {
        lock.withLock {
            process?.stop()
            process = nil
        }
    }

    /// Kills the server with SIGKILL, as a crash would: for tests of a server
    /// that dies mid-sync.
    public func kill() {
        lock.withLock {
            process?.kill()
            process = nil
        }
    }

    /// Stops the server if it runs, and starts it again on the same port
    /// with the same data; returns once it accepts connections.
    public func restart() throws {
        try lock.withLock {
            process?.stop()
            process = nil
            do {
                process = try Self.start(setup: setup, folder: folder, logFile: logFile, port: port)
            } catch is PortTaken {
                throw CalDAVTestServerError("cannot restart: another process took port \(port)\n\(logTail())")
            }
        }
    }

    /// Runs `script` with /usr/bin/python3 as a phone would edit the same
    /// collection, and returns what it printed. Before it come `import
    /// caldav` and two variables: `client` (python-caldav's DAVClient, logged
    /// in, trusting the test CA) and `calendar` (the collection). URL, user,
    /// password and CA reach Python in the environment (CALDAV_URL,
    /// CALDAV_USER, CALDAV_PASSWORD, CALDAV_CA_FILE), never in its arguments.
    /// Throws with its stderr if it fails.
    public func phone(_ script: String, collection: String? = nil) throws -> String {
        try runPython(PythonScripts.phonePrelude + script, purpose: "the phone script", url: collection)
    }

    /// Makes another to-do collection beside the first, named `name`
    /// (`/me/NAME/` on Radicale, `/user/calendars/NAME/` on Xandikos), and
    /// returns its URL.
    public func makeCollection(named name: String) throws -> String {
        let url = String(collectionURL.dropLast().split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
            + "/\(name)/"
        _ = try runPython(PythonScripts.makeTaskCalendar, purpose: "making the collection \(name)", url: url)
        return url
    }

    /// The UIDs and summaries of the to-dos in `collection` (the first
    /// one by default), as python3-caldav reads them: `[UID: SUMMARY]`.
    public func todos(in collection: String? = nil) throws -> [String: String] {
        let printed = try phone(
            """
            import json
            print(json.dumps({str(t.icalendar_component['uid']): str(t.icalendar_component.get('summary', ''))
                              for t in calendar.todos(include_completed=True)}))
            """, collection: collection)
        guard let line = printed.split(separator: "\n").last,
            let todos = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        else { throw CalDAVTestServerError("the phone printed \(printed)") }
        return todos
    }

    /// The server's log so far.
    public var log: String {
        (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
    }

    private func runPython(_ script: String, purpose: String, url: String? = nil) throws -> String {
        let file = folder.file("script-\(UUID().uuidString).py")
        try script.write(toFile: file, atomically: false, encoding: .utf8)
        defer { unlink(file) }
        var variables = ["CALDAV_URL": url ?? collectionURL, "CALDAV_USER": user, "CALDAV_PASSWORD": password]
        if let caFile { variables["CALDAV_CA_FILE"] = caFile }
        let output = try ProgramRun.run(
            Python.executable, [file], environment: Python.environment(home: folder.path, adding: variables),
            directory: folder.path)
        guard output.succeeded else {
            throw CalDAVTestServerError(
                "\(purpose) failed (status \(output.status)):\n\(output.stderr)\(output.stdout)\n\(logTail())")
        }
        return output.stdout
    }

    private func logTail(lines: Int = 30) -> String {
        Self.logTail(of: logFile, lines: lines)
    }

    private static func randomPassword() -> String {
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max)) }.joined()
    }
}
