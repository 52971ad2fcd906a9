import Foundation
import PostgresTestSupport
import TestSupport
import Testing

/// The accidents an administrator makes with a shared list's database
/// while several real todod instances serve it, on a throwaway cluster:
/// a backup restored under them, a list copied over them, a mistyped
/// database, and a local list left behind when an instance moves to the
/// shared one.
@Suite(.serialized) final class SharedListAccidentsEndToEndTests {
    let cluster: PostgresCluster

    init() throws {
        cluster = try PostgresCluster(name: "todod-accidents")
    }

    deinit { cluster.destroy() }

    /// A started instance named `name` on `database`; `initStore` lets it
    /// make the list.
    private func instance(_ name: String, database: String, initStore: Bool = false, dataDirectory: String? = nil) async throws
        -> DaemonProcess
    {
        let daemon = try DaemonProcess(dataDirectory: dataDirectory)
        daemon.arguments = ["--store", cluster.tcpURL(database: database), "--instance", name] + (initStore ? ["--init-store"] : [])
        daemon.environment = ["PGPASSFILE": cluster.passwordFile]
        try await daemon.start()
        return daemon
    }

    /// Runs `todod` itself (`migrate`, `init-store`) to the end.
    private func todod(_ arguments: [String]) async throws -> CommandResult {
        let output = OutputCollector()
        let errors = OutputCollector()
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSFILE"] = cluster.passwordFile
        let child = try ChildProcess(Binaries.todod, arguments, environment: environment, stdout: output, stderr: errors)
        let status = await child.waitForExit(timeout: .seconds(120)) ?? -1
        await output.waitForEndOfFile()
        await errors.waitForEndOfFile()
        return CommandResult(status: status, stdout: output.text, stderr: errors.text)
    }

    /// The rows `todoctl ls` shows, in order of id ("3 buy milk").
    private func rows(_ socket: String) async throws -> [String] {
        let listed = try await todoctl("ls", "--filter", "all", "--json", socket: socket)
        let state = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any]
        return (state?["rows"] as? [[String: Any]] ?? []).sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
            .map { "\($0["id"] ?? "?") \($0["title"] ?? "?")" }
    }

    private func status(_ socket: String) async throws -> [String: Any] {
        let shown = try await todoctl("status", "--json", socket: socket)
        return try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// Waits (at most 60 s) for a notice containing `text` in `server.status`, and returns it.
    private func notice(containing text: String, on socket: String) async throws -> String? {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let found = (try await status(socket)["notices"] as? [String] ?? []).first(where: { $0.contains(text) }) { return found }
            try await Task.sleep(for: .milliseconds(200))
        }
        return nil
    }

    /// Waits (at most 60 s) until `socket`'s `server.status` satisfies `condition`.
    private func waitForStatus(on socket: String, _ condition: ([String: Any]) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if condition(try await status(socket)) { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }

    /// Waits (at most 60 s) until `socket` lists exactly `expected`.
    private func waitForRows(_ expected: [String], on socket: String) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(60)
        var seen: [String] = []
        while ContinuousClock.now < deadline {
            seen = try await rows(socket)
            if seen == expected { return seen }
            try await Task.sleep(for: .milliseconds(100))
        }
        return seen
    }

    /// The saved-aside files in a data directory.
    private func leftBehind(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("left-behind-") }.sorted()
            .map { "\(directory)/\($0)" }
    }

    @Test func aBackupRestoredUnderThreeInstancesIsReloadedByEachAndWhatItHeldIsSavedAside() async throws {
        let database = try cluster.createDatabase("restored")
        let laptop = try await instance("laptop", database: database, initStore: true)
        let desktop = try await instance("desktop", database: database)
        let phone = try await instance("phone", database: database)
        for title in ["one", "two", "three"] { #expect(try await todoctl("add", title, socket: laptop.socket).status == 0) }
        let backup = laptop.directory.appendingPathComponent("hour-old.dump").path
        try cluster.dump(database, to: backup)
        for title in ["four", "five"] { #expect(try await todoctl("add", title, socket: desktop.socket).status == 0) }
        let all = ["1 one", "2 two", "3 three", "4 four", "5 five"]
        #expect(try await waitForRows(all, on: phone.socket) == all)

        let watched = OutputCollector()
        let watcher = try ChildProcess(Binaries.todoctl, ["--socket", phone.socket, "watch", "--events"], stdout: watched)
        defer { watcher.signal(SIGTERM) }
        #expect(await watched.wait { $0.contains("five") })

        // Dropped first, until each instance finds the store out of reach:
        // a reload must then also find it back in reach, or every edit on
        // the reloaded list would be refused as if it were still away.
        try cluster.administer("dropdb", ["--force", database])
        for daemon in [laptop, desktop, phone] {
            #expect(try await waitForStatus(on: daemon.socket) { $0["stale"] as? Bool == true }, "\(daemon.log.text)")
        }
        try cluster.administer("createdb", ["-O", cluster.user, database])
        try cluster.administer("pg_restore", ["-d", database, backup])
        let restored = ["1 one", "2 two", "3 three"]
        for daemon in [laptop, desktop, phone] {
            let said = try #require(try await notice(containing: "reloaded it", on: daemon.socket), "\(daemon.log.text)")
            #expect(try await rows(daemon.socket) == restored, "\(said)")
            let saved = try leftBehind(in: daemon.dataDirectory)
            #expect(saved.count == 1 && said.contains(saved.first ?? "?"), "the notice names the file: \(said)")
            let text = try String(contentsOfFile: try #require(saved.first), encoding: .utf8)
            #expect(text.contains("four") && text.contains("five") && !text.contains("\"one\""), "\(text)")
            #expect(daemon.log.text.contains("reloaded it"), "the journal says so")
        }
        // The watcher was reset to the restored list, without reconnecting.
        #expect(await watched.wait { $0.contains("\"reset\"") && $0.components(separatedBy: "three").count > 2 }, "\(watched.text)")
        // A new item takes no id an item saved aside has.
        let added = try await todoctl("add", "six", socket: phone.socket)
        #expect(added.status == 0, "\(added.stderr)")
        let after = try await waitForRows(restored + ["6 six"], on: laptop.socket)
        #expect(after == restored + ["6 six"])
        for daemon in [laptop, desktop, phone] {
            #expect(try await daemon.terminate() == 0, "SIGTERM stops it within the unit's stop timeout")
        }
    }

    @Test func aForcedMigrateIsRefusedWhileInstancesRunAndWithWhileRunningTheyReloadTheCopy() async throws {
        let local = try DaemonProcess()
        try await local.start()
        #expect(try await todoctl("add", "copied in", socket: local.socket).status == 0)
        #expect(try await local.terminate() == 0)

        let database = try cluster.createDatabase("copied")
        let laptop = try await instance("laptop", database: database, initStore: true)
        let desktop = try await instance("desktop", database: database)
        for title in ["shared one", "shared two"] { #expect(try await todoctl("add", title, socket: laptop.socket).status == 0) }
        #expect(try await waitForRows(["1 shared one", "2 shared two"], on: desktop.socket).count == 2)

        let copy = ["migrate", "--from", "sqlite:\(local.dataDirectory)/todos.sqlite", "--to", cluster.tcpURL(database: database), "--force"]
        let refused = try await todod(copy)
        #expect(refused.status == 73 && refused.stderr.contains("2 todod instances serve this list"), "\(refused)")
        #expect(refused.stderr.contains("--while-running"), "\(refused)")
        #expect(try await rows(desktop.socket) == ["1 shared one", "2 shared two"], "nothing was copied")

        let copied = try await todod(copy + ["--while-running"])
        #expect(copied.status == 0, "\(copied)")
        for daemon in [laptop, desktop] {
            let said = try #require(try await notice(containing: "reloaded it", on: daemon.socket), "\(daemon.log.text)")
            #expect(try await rows(daemon.socket) == ["1 copied in"], "\(said)")
            let saved = try #require(try leftBehind(in: daemon.dataDirectory).first, "\(said)")
            let text = try String(contentsOfFile: saved, encoding: .utf8)
            #expect(text.contains("shared one") && text.contains("shared two"), "\(text)")
        }
        #expect(try await todoctl("add", "after the copy", socket: desktop.socket).status == 0)
        #expect(try await waitForRows(["1 copied in", "2 after the copy"], on: laptop.socket) == ["1 copied in", "2 after the copy"])
        #expect(try await laptop.terminate() == 0)
        #expect(try await desktop.terminate() == 0)
    }

    @Test func aMistypedDatabaseIsRefusedByNameAndAListInPostgreSQLMovesBackToSQLite() async throws {
        let database = try cluster.createDatabase("todod")
        let right = try await instance("laptop", database: database, initStore: true)
        #expect(try await todoctl("add", "in the right list", socket: right.socket).status == 0)

        // "todo" for "todod": a database that exists, owned by the role, without a list.
        let typo = try cluster.createDatabase("todo")
        let mistyped = try DaemonProcess()
        mistyped.arguments = ["--store", cluster.tcpURL(database: typo), "--instance", "desktop"]
        mistyped.environment = ["PGPASSFILE": cluster.passwordFile]
        #expect(try await mistyped.startExpectingRefusal() == 78)
        #expect(mistyped.log.text.contains("the database “todo”") && mistyped.log.text.contains("holds no todod list"), "\(mistyped.log.text)")
        #expect(try cluster.psql("SELECT to_regclass('todod_schema') IS NULL", database: typo) == "t\n", "nothing was created")

        // Made on purpose, a list there serves; `todod migrate` brings its items back out.
        let made = try await todod(["init-store", cluster.tcpURL(database: typo)])
        #expect(made.status == 0 && made.stdout.contains("ready"), "\(made)")
        let desktop = try await instance("desktop", database: typo)
        #expect(try await todoctl("add", "typed into the wrong list", socket: desktop.socket).status == 0)
        let rescued = try DaemonProcess()
        let moved = try await todod([
            "migrate", "--from", cluster.tcpURL(database: typo), "--to", "sqlite:\(rescued.dataDirectory)/todos.sqlite",
        ])
        #expect(moved.status == 0 && moved.stdout.contains("copied 1 items"), "\(moved)")
        try await rescued.start()
        #expect(try await rows(rescued.socket) == ["1 typed into the wrong list"])
        let again = try await todod([
            "migrate", "--from", cluster.tcpURL(database: typo), "--to", "sqlite:\(rescued.dataDirectory)/todos.sqlite",
        ])
        #expect(again.status == 75 && again.stderr.contains("another todod"), "a file a todod serves is not written over: \(again)")
        #expect(try await rows(right.socket) == ["1 in the right list"])
        #expect(try await rescued.terminate() == 0)
        #expect(try await desktop.terminate() == 0)
        #expect(try await right.terminate() == 0)
    }

    @Test func aLocalListLeftBehindIsNamedAtStartAndMergeAddsItsItemsAsOneUndoStep() async throws {
        let moving = try DaemonProcess()
        try await moving.start()
        for title in ["local one", "local two"] { #expect(try await todoctl("add", title, socket: moving.socket).status == 0) }
        #expect(try await moving.terminate() == 0)

        let database = try cluster.createDatabase("merged")
        let laptop = try await instance("laptop", database: database, initStore: true)
        #expect(try await todoctl("add", "shared", socket: laptop.socket).status == 0)
        let desktop = try await instance("desktop", database: database, dataDirectory: moving.dataDirectory)
        let said = try #require(try await notice(containing: "todod migrate --merge", on: desktop.socket), "\(desktop.log.text)")
        #expect(said.contains("holds 2 items"), "\(said)")
        #expect(desktop.log.text.contains("todod migrate --merge"), "the journal says so too")
        #expect(try await rows(desktop.socket) == ["1 shared"])

        let merge = ["migrate", "--merge", "--from", "sqlite:\(moving.dataDirectory)/todos.sqlite", "--to", cluster.tcpURL(database: database)]
        let merged = try await todod(merge)
        #expect(merged.status == 0 && merged.stdout.contains("merged 2 items"), "\(merged)")
        let together = ["1 shared", "2 local one", "3 local two"]
        let onLaptop = try await waitForRows(together, on: laptop.socket)
        #expect(onLaptop == together)
        #expect(try await waitForRows(together, on: desktop.socket) == onLaptop)
        let twice = try await todod(merge)
        #expect(twice.status == 73 && twice.stderr.contains("merged into this one already"), "\(twice)")

        // One undo step takes the whole merge back.
        let undone = try await todoctl("undo", socket: laptop.socket)
        #expect(undone.status == 0, "\(undone)")
        #expect(try await waitForRows(["1 shared"], on: desktop.socket) == ["1 shared"])

        // Merged once, the local list is not pointed at again.
        #expect(try await desktop.terminate() == 0)
        let restarted = try await instance("desktop", database: database, dataDirectory: moving.dataDirectory)
        #expect((try await status(restarted.socket)["notices"] as? [String]) == [], "\(restarted.log.text)")
        #expect(try await restarted.terminate() == 0)
        #expect(try await laptop.terminate() == 0)
    }
}
