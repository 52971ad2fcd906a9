import CalDAVServerSupport
import Foundation
import TestSupport

/// A real todod whose list syncs with a real CalDAV server through the real
/// `todod-sync`: set up as README says (`sync add` with a password file),
/// then synced one round at a time (`sync now`, which waits for the round),
/// so a test never races the service's timers.
final class SyncedList: @unchecked Sendable {
    let daemon: DaemonProcess
    let server: CalDAVTestServer
    /// The collection `start()` sets up: the server's own unless given.
    let collectionURL: String
    /// XDG_CONFIG_HOME and XDG_STATE_HOME of this list's sync.
    let home: URL
    /// XDG_RUNTIME_DIR of its commands: with `asDefaultSocket`, the todod
    /// there is the one at the default socket, as `todod.socket`'s is.
    let runtimeDirectory: String

    /// - Parameters:
    ///   - home: the home of the user whose sync this is; shared by two
    ///     lists, they are one user's two todods. Else a home of its own.
    ///   - asDefaultSocket: todod listens where todoctl looks by default
    ///     (`$XDG_RUNTIME_DIR/todod/todod.sock`), so that its sync is the
    ///     user's default one (`sync.conf`, `todod-sync.service`).
    init(server: CalDAVTestServer, collectionURL: String? = nil, home: URL? = nil, asDefaultSocket: Bool = false) throws {
        daemon = try DaemonProcess(socketSubdirectory: asDefaultSocket ? "todod" : nil)
        self.server = server
        self.collectionURL = collectionURL ?? server.collectionURL
        self.home = home ?? daemon.directory.appendingPathComponent("home")
        runtimeDirectory = daemon.directory.path
        try FileManager.default.createDirectory(at: self.home, withIntermediateDirectories: true)
    }

    /// A list synced with a new server of `kind` (Radicale over TLS with a
    /// CA of the test's own, or Xandikos), set up and synced once. The
    /// server stops when the list goes.
    static func started(on kind: CalDAVTestServer.Kind) async throws -> SyncedList {
        let list = try SyncedList(server: kind == .radicale ? try .radicale(tls: true) : try .xandikos())
        try await list.start()
        return list
    }

    var environment: [String: String] {
        [
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "XDG_RUNTIME_DIR": runtimeDirectory,
        ]
    }

    /// Starts todod and sets the sync up (its first round included).
    func start() async throws {
        try await daemon.start()
        let added = try await sync(try addArguments())
        guard added.status == 0 else { throw TestFailure("todod-sync add failed: \(added.stdout) \(added.stderr)") }
    }

    /// The arguments of `todod-sync add` for this server (its password
    /// file written): it saves the settings, then syncs a first time.
    func addArguments(collectionURL: String? = nil) throws -> [String] {
        let passwordFile = home.appendingPathComponent("password").path
        try Data((server.password + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))
        var arguments = ["add", collectionURL ?? self.collectionURL, "--user", server.user, "--password-file", passwordFile, "--no-start"]
        if let caFile = server.caFile { arguments += ["--ca-file", caFile] }
        return arguments
    }

    /// Runs `todod-sync ARGUMENTS --socket …` and waits for it.
    @discardableResult
    func sync(_ arguments: [String], timeout: Duration = .seconds(120)) async throws -> CommandResult {
        let stdout = OutputCollector()
        let stderr = OutputCollector()
        let child = try ChildProcess(
            Binaries.todoSync, arguments + ["--socket", daemon.socket],
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, stdout: stdout, stderr: stderr)
        guard let status = await child.waitForExit(timeout: timeout) else {
            child.signal(SIGKILL)
            throw TestFailure("todod-sync \(arguments.joined(separator: " ")) did not finish: \(stdout.text) \(stderr.text)")
        }
        await stdout.waitForEndOfFile()
        await stderr.waitForEndOfFile()
        return CommandResult(status: status, stdout: stdout.text, stderr: stderr.text)
    }

    /// One sync round (or more, until nothing is left), in this process.
    func syncNow() async throws {
        let result = try await sync(["now"])
        guard result.status == 0 else { throw TestFailure("todod-sync now failed (\(result.status)): \(result.stdout) \(result.stderr)") }
    }

    /// `todod-sync status --json`.
    func status() async throws -> [String: Any] {
        let result = try await sync(["status", "--json"])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw TestFailure("todod-sync status failed: \(result.stdout) \(result.stderr)")
        }
        return object
    }

    func todoctl(_ arguments: String...) async throws -> CommandResult {
        try await EndToEndTests.todoctl(arguments: arguments, socket: daemon.socket)
    }

    /// The list as `todoctl export --format ical` writes it.
    func export() async throws -> String {
        let result = try await todoctl("export", "--format", "ical")
        guard result.status == 0 else { throw TestFailure("export failed: \(result.stderr)") }
        return result.stdout
    }

    /// Each to-do's fields as python's icalendar reads them, by UID, from
    /// the list's export and from the collection as python3-caldav reads
    /// it; they must be the same to-dos with the same fields. What each
    /// side stamps on a write (DTSTAMP, LAST-MODIFIED, SEQUENCE) is left
    /// out, and so is CREATED, which todod stamps on a to-do a phone made
    /// without one (when it came in: the phone never said).
    func convergence() async throws -> (list: [String: [String]], server: [String: [String]]) {
        let file = daemon.directory.appendingPathComponent("export-\(UUID().uuidString).ics")
        try Data(try await export().utf8).write(to: file)
        let local = try server.phone(Self.normalizer + "print(json.dumps(fields(open(\(Self.quoted(file.path)), 'rb').read())))")
        let remote = try server.phone(
            Self.normalizer + "print(json.dumps(fields(b''.join(t.data.encode() for t in calendar.todos(include_completed=True)))))")
        return (try Self.decode(local), try Self.decode(remote))
    }

    /// What differs between the list and the server, one line a to-do: empty when they agree.
    func disagreements() async throws -> [String] {
        let (here, there) = try await convergence()
        var lines: [String] = []
        for uid in Set(here.keys).union(there.keys).sorted() where here[uid] != there[uid] {
            let mine = Set(here[uid] ?? []), theirs = Set(there[uid] ?? [])
            lines.append("\(uid): list only \(mine.subtracting(theirs).sorted()), server only \(theirs.subtracting(mine).sorted())")
        }
        return lines
    }

    private static func decode(_ text: String) throws -> [String: [String]] {
        guard let line = text.split(separator: "\n").last, let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String]] else {
            throw TestFailure("the normalizer printed \(text)")
        }
        return object
    }

    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'" }

    /// Python: `fields(ics_bytes)` → {uid: sorted ["NAME:meaning", …]}:
    /// what each property means, read by python's icalendar on its own,
    /// not by todod's code. A time is its UTC instant (a floating one as
    /// written), tags a set in any case, a priority its level, done is done
    /// whichever property says it, notes are the description's lines
    /// (todod's dated copies, X-TODOD-NOTE, only date them), and a nested
    /// component (VALARM) is its properties.
    static let normalizer = """
        import json, datetime, icalendar
        SKIP = {'DTSTAMP', 'LAST-MODIFIED', 'SEQUENCE', 'CREATED', 'X-TODOD-NOTE', 'STATUS', 'COMPLETED', 'PERCENT-COMPLETE', 'CATEGORIES', 'PRIORITY', 'DESCRIPTION'}
        def meaning(value):
            if hasattr(value, 'dt'): value = value.dt
            if isinstance(value, datetime.datetime):
                return value.astimezone(datetime.timezone.utc).isoformat() if value.tzinfo else value.isoformat() + ' floating'
            if isinstance(value, datetime.date): return value.isoformat()
            params = ';'.join('%s=%s' % (k, v) for k, v in sorted(getattr(value, 'params', {}).items()) if k not in ('TZID', 'VALUE'))
            text = value.to_ical().decode() if hasattr(value, 'to_ical') else str(value)
            return (params + ':' if params else '') + text
        def properties(component):
            lines = []
            for name, value in component.property_items(recursive=False):
                if name in SKIP or name in ('BEGIN', 'END'): continue
                for one in (value if isinstance(value, list) else [value]):
                    lines.append(name + '=' + meaning(one))
            return lines
        def fields(data):
            result = {}
            for calendar in icalendar.Calendar.from_ical(data, multiple=True):
                for todo in calendar.walk('VTODO'):
                    if 'RECURRENCE-ID' in todo: continue
                    lines = properties(todo)
                    status = str(todo.get('STATUS', 'NEEDS-ACTION')).upper()
                    lines.append('done=' + str(status == 'COMPLETED' or 'COMPLETED' in todo))
                    tags = todo.get('CATEGORIES')
                    tags = tags if isinstance(tags, list) else [tags] if tags is not None else []
                    lines.append('tags=' + ','.join(sorted({str(c).lower() for t in tags for c in t.cats})))
                    priority = int(todo.get('PRIORITY', 0))
                    lines.append('priority=' + ('' if priority == 0 else 'high' if priority < 5 else 'medium' if priority == 5 else 'low'))
                    notes = [l.strip() for l in str(todo.get('DESCRIPTION', '')).splitlines() if l.strip()]
                    lines.append('notes=' + '|'.join(notes))
                    for sub in todo.subcomponents:
                        lines.append(sub.name + '=' + '|'.join(sorted(properties(sub))))
                    result[str(todo['UID'])] = sorted(lines)
            return result

        """
}
