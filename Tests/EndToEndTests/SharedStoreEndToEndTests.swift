import Foundation
import PostgresTestSupport
import TestSupport
import Testing

/// Several real todod instances sharing one list in a real PostgreSQL (a
/// throwaway cluster), over TCP with a password file, as separate machines
/// would: edits on one are pushed live to the others' watchers, with the
/// same revision and cause everywhere.
@Suite(.serialized) final class SharedStoreEndToEndTests {
    let cluster: PostgresCluster

    init() throws {
        cluster = try PostgresCluster()
    }

    deinit { cluster.destroy() }

    /// A started instance named `name` on `database`.
    func instance(_ name: String, database: String) async throws -> DaemonProcess {
        let daemon = try DaemonProcess()
        daemon.arguments = ["--store", cluster.tcpURL(database: database), "--instance", name, "--init-store"]
        daemon.environment = ["PGPASSFILE": cluster.passwordFile]
        try await daemon.start()
        return daemon
    }

    /// "id done title" per row, as `todoctl ls --json` lists them.
    private func listing(_ socket: String) async throws -> [String] {
        let listed = try await todoctl("ls", "--json", socket: socket)
        let state = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any]
        let rows = state?["rows"] as? [[String: Any]] ?? []
        return rows.map { "\($0["id"] ?? "?") \($0["done"] ?? "?") \($0["title"] ?? "?")" }
    }

    private func events(_ output: OutputCollector) -> [[String: Any]] {
        output.text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["params"] as? [String: Any]
        }
    }

    /// Every transcript in Protocol/ against an instance whose list is in
    /// PostgreSQL, a new database for each (Protocol/conformance/replay.py
    /// --store-command).
    @Test func theProtocolTranscriptsPassAgainstAPostgresBackedInstance() async throws {
        let psql = "\(cluster.binDirectory)/psql -X -q -h \(cluster.socketDirectory) -p \(cluster.port) -U \(cluster.superuser) -d postgres"
        let command = """
            name=conformance_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \\n') && \
            \(psql) -c "CREATE DATABASE $name OWNER \(cluster.user)" >/dev/null && \
            echo "postgres://\(cluster.user)@127.0.0.1:\(cluster.port)/$name?sslmode=disable"
            """
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSFILE"] = cluster.passwordFile
        let scratch = try TemporaryDirectory("replay", in: "/tmp")
        let output = OutputCollector()
        let child = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                ProtocolV1EndToEndTests.protocolDirectory.appendingPathComponent("conformance/replay.py").path,
                "--todod", Binaries.todod.path, "--store-command", command,
            ],
            environment: ProtocolV1EndToEndTests.replayEnvironment(scratch: scratch, environment), stdout: output, stderr: output)
        let status = await child.waitForExit(timeout: .seconds(600))
        await output.waitForEndOfFile()
        #expect(status == 0, "\(output.text)")
        #expect(output.text.contains("13 of 13 transcripts passed") || output.text.contains("transcripts passed"), "\(output.text)")
        #expect(!output.text.contains("FAIL"), "\(output.text)")
    }

    @Test func anEditOnOneInstanceIsPushedToAWatcherOnAnotherWithTheSameRevisionAndCause() async throws {
        let database = try cluster.createDatabase("live")
        let laptop = try await instance("laptop", database: database)
        let desktop = try await instance("desktop", database: database)

        let onLaptop = OutputCollector()
        let onDesktop = OutputCollector()
        let watchers = [
            try ChildProcess(Binaries.todoctl, ["--socket", laptop.socket, "watch", "--events"], stdout: onLaptop),
            try ChildProcess(Binaries.todoctl, ["--socket", desktop.socket, "watch", "--events"], stdout: onDesktop),
        ]
        defer { for watcher in watchers { watcher.signal(SIGTERM) } }
        let laptopWatching = await onLaptop.wait { !$0.isEmpty }
        let desktopWatching = await onDesktop.wait { !$0.isEmpty }
        #expect(laptopWatching && desktopWatching)

        let added = try await todoctl("add", "pay rent +home", socket: laptop.socket)
        #expect(added.status == 0, "\(added)")
        #expect(await onDesktop.wait { $0.contains("pay rent") }, "\(onDesktop.text)")
        #expect(await onLaptop.wait { $0.contains("pay rent") }, "\(onLaptop.text)")
        let seenOnDesktop = try #require(events(onDesktop).last { "\($0)".contains("pay rent") })
        let seenOnLaptop = try #require(events(onLaptop).last { "\($0)".contains("pay rent") })
        #expect(seenOnDesktop["revision"] as? Int == seenOnLaptop["revision"] as? Int)
        let cause = try #require(seenOnDesktop["cause"] as? [String: Any])
        #expect(cause["instance"] as? String == "laptop")
        #expect(NSDictionary(dictionary: cause).isEqual(to: try #require(seenOnLaptop["cause"] as? [String: Any])))

        // Undo on the desktop takes back the list's last step, made on the laptop.
        let undone = try await todoctl("undo", socket: desktop.socket)
        #expect(undone.stdout.contains("add “pay rent” (from laptop)"), "\(undone)")
        let listed = try await todoctl("ls", socket: laptop.socket)
        #expect(!listed.stdout.contains("pay rent"), "\(listed)")
        _ = try await laptop.terminate()
        _ = try await desktop.terminate()
    }

    @Test func withoutTheServerEditsAreRefusedWithOneLineReadsGoOnAndNothingAcknowledgedIsLost() async throws {
        let database = try cluster.createDatabase("outage")
        let laptop = try await instance("laptop", database: database)
        #expect(try await todoctl("add", "before the outage", socket: laptop.socket).status == 0)
        try cluster.stop()

        let refused = try await todoctl("add", "during the outage", socket: laptop.socket)
        #expect(refused.status == 69, "\(refused)")
        let message = refused.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!message.contains("\n") && message.contains("127.0.0.1:\(cluster.port)"), "one line naming the server: \(message)")
        let listed = try await todoctl("ls", socket: laptop.socket)
        #expect(listed.status == 0 && listed.stdout.contains("before the outage") && !listed.stdout.contains("during"), "\(listed)")
        let status = try await todoctl("status", "--json", socket: laptop.socket)
        let stale = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        #expect(stale?["stale"] as? Bool == true && stale?["store"] as? String == "postgres", "\(status)")

        try cluster.start()
        var after: CommandResult?
        for _ in 0..<60 {
            after = try await todoctl("add", "after the outage", socket: laptop.socket)
            if after?.status == 0 { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(after?.status == 0, "\(String(describing: after))")
        let titles = try await listing(laptop.socket).map { $0.split(separator: " ", maxSplits: 2).last.map(String.init) ?? "" }
        #expect(titles == ["before the outage", "after the outage"])
        let fresh = try JSONSerialization.jsonObject(with: Data(try await todoctl("status", "--json", socket: laptop.socket).stdout.utf8))
        #expect((fresh as? [String: Any])?["stale"] as? Bool == false)
    }

    @Test func anInstanceWaitsForAServerThatIsNotUpYetAndRefusesAWrongPasswordAtOnce() async throws {
        let database = try cluster.createDatabase("start")
        try cluster.stop()
        let waiting = try DaemonProcess()
        waiting.arguments = ["--store", cluster.tcpURL(database: database), "--instance", "early", "--init-store"]
        waiting.environment = ["PGPASSFILE": cluster.passwordFile]
        // The server comes up once todod says it waits for it.
        try await waiting.start(onceLogShows: "waiting for the store") { try cluster.start() }
        #expect(waiting.log.text.contains("waiting for the store"), "\(waiting.log.text)")
        #expect(try await todoctl("add", "served", socket: waiting.socket).status == 0)

        let wrong = try DaemonProcess()
        let passwords = wrong.directory.appendingPathComponent("pgpass")
        try "127.0.0.1:\(cluster.port):*:\(cluster.user):not-the-password\n".write(to: passwords, atomically: true, encoding: .utf8)
        chmod(passwords.path, 0o600)
        wrong.arguments = ["--store", cluster.tcpURL(database: database), "--instance", "wrong"]
        wrong.environment = ["PGPASSFILE": passwords.path]
        let started = ContinuousClock.now
        #expect(try await wrong.startExpectingRefusal() == 78)
        #expect(ContinuousClock.now - started < .seconds(20), "a refusal is not waited out")
        #expect(wrong.log.text.contains("refused the connection") && wrong.log.text.contains("password"), "\(wrong.log.text)")

        // No password to be had (no password file, or one that is ignored
        // for its mode) is a refusal too, not a server to wait for.
        for mode in [nil, 0o644] as [mode_t?] {
            let without = try DaemonProcess()
            let file = without.directory.appendingPathComponent("pgpass")
            if let mode {
                try "127.0.0.1:\(cluster.port):*:\(cluster.user):\(cluster.password)\n".write(to: file, atomically: true, encoding: .utf8)
                chmod(file.path, mode)
            }
            without.arguments = ["--store", cluster.tcpURL(database: database), "--instance", "without", "--init-store"]
            without.environment = ["PGPASSFILE": file.path]
            let began = ContinuousClock.now
            #expect(try await without.startExpectingRefusal() == 78, "\(without.log.text)")
            #expect(ContinuousClock.now - began < .seconds(20), "a missing password is not waited out")
            #expect(without.log.text.contains("asks for a password"), "\(without.log.text)")
        }
    }

    /// TLS when the server offers it (sslmode=prefer, the default), a
    /// certificate checked with verify-full, and one that does not verify refused.
    @Test func tlsIsUsedWhenTheServerOffersItAndCertificatesAreChecked() async throws {
        let database = try cluster.createDatabase("tls")
        // A self-signed certificate for 127.0.0.1, kept with the server's data.
        let key = "\(cluster.dataDirectory)/server.key"
        let certificate = "\(cluster.dataDirectory)/server.crt"
        _ = try await output(
            of: URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
            ])
        if geteuid() == 0 {
            for file in [key, certificate] { _ = try await output(of: URL(fileURLWithPath: "/bin/chown"), ["postgres:postgres", file]) }
        }
        chmod(key, 0o600)
        let trusted = cluster.directory + "/ca.crt"
        try FileManager.default.copyItem(atPath: certificate, toPath: trusted)
        chmod(trusted, 0o644)
        _ = try cluster.psql("ALTER SYSTEM SET ssl = on")
        try cluster.restart()

        let url = "postgres://\(cluster.user)@127.0.0.1:\(cluster.port)/\(database)"
        let preferring = try DaemonProcess()
        preferring.arguments = ["--store", url, "--instance", "tls", "--init-store"]
        preferring.environment = ["PGPASSFILE": cluster.passwordFile]
        try await preferring.start()
        #expect(try await todoctl("add", "over TLS", socket: preferring.socket).status == 0)
        let encrypted = try cluster.psql(
            "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.datname = '\(database)' AND s.ssl")
        #expect((Int(encrypted.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 1, "no TLS connection: \(encrypted)")

        let verifying = try DaemonProcess()
        verifying.arguments = ["--store", url + "?sslmode=verify-full&sslrootcert=\(trusted)", "--instance", "verified", "--init-store"]
        verifying.environment = ["PGPASSFILE": cluster.passwordFile]
        try await verifying.start()
        #expect(try await todoctl("ls", socket: verifying.socket).stdout.contains("over TLS"))

        // The system's authorities do not know this certificate: refused, not waited out.
        let untrusting = try DaemonProcess()
        untrusting.arguments = ["--store", url + "?sslmode=verify-full", "--instance", "untrusting", "--init-store"]
        untrusting.environment = ["PGPASSFILE": cluster.passwordFile]
        #expect(try await untrusting.startExpectingRefusal() == 78, "\(untrusting.log.text)")
        #expect(untrusting.log.text.contains("refused the connection"), "\(untrusting.log.text)")
    }

    @Test func aClientMovingToAnotherInstanceResumesByReplay() async throws {
        let database = try cluster.createDatabase("resume")
        let laptop = try await instance("laptop", database: database)
        let desktop = try await instance("desktop", database: database)
        #expect(try await todoctl("add", "one", socket: laptop.socket).status == 0)
        let connection = try RawConnection(path: laptop.socket, readGreeting: true)
        try connection.send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe","params":{"properties":["itemsLeft"]}}"# + "\n")
        let subscribed = try connection.readMessage()
        let result = try #require(subscribed["result"] as? [String: Any])
        let (epoch, revision) = (try #require(result["epoch"] as? String), try #require(result["revision"] as? Int))
        connection.close()
        // Edits the client does not see, made on either instance.
        #expect(try await todoctl("add", "two", socket: laptop.socket).status == 0)
        #expect(try await todoctl("add", "three", socket: desktop.socket).status == 0)

        let moved = try RawConnection(path: desktop.socket, readGreeting: true)
        try moved.send(
            #"{"jsonrpc":"2.0","id":2,"method":"view.subscribe","params":{"properties":["itemsLeft"],"since":{"epoch":"\#(epoch)","revision":\#(revision)}}}"#
                + "\n")
        let resumed = try #require(try moved.readMessage()["result"] as? [String: Any])
        #expect(resumed["mode"] as? String == "replay", "\(resumed)")
        let replay = try #require(resumed["replay"] as? [[String: Any]])
        #expect(replay.map { $0["revision"] as? Int } == [revision + 1, revision + 2])
        #expect(((replay.last?["properties"] as? [String: Any])?["itemsLeft"] as? String) == "3 items left")
        #expect(((replay.first?["cause"] as? [String: Any])?["instance"] as? String) == "laptop")
        moved.close()
    }

    @Test func aSQLiteListOf20000ItemsMovesWholeAndExportsTheSame() async throws {
        let embedded = try DaemonProcess()
        try await embedded.start()
        let file = embedded.directory.appendingPathComponent("todo.txt")
        let lines = (1...20_000).map { "(\(["A", "B", "C"][$0 % 3])) task \($0) +tag\($0 % 7) project:p\($0 % 5) due:2026-12-\(String(format: "%02d", $0 % 28 + 1))" }
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let imported = try await todoctl("import", file.path, socket: embedded.socket)
        #expect(imported.status == 0, "\(imported)")
        #expect(try await todoctl("done", "7", socket: embedded.socket).status == 0)
        #expect(try await todoctl("view", "save", "home", "project:p1", socket: embedded.socket).status == 0)
        let exportedBefore = try await todoctl("export", "--format", "taskwarrior", socket: embedded.socket)
        #expect(try await embedded.terminate() == 0)

        let database = try cluster.createDatabase("moved")
        let migrate = { (arguments: [String]) async throws -> CommandResult in
            let output = OutputCollector()
            let errors = OutputCollector()
            var environment = ProcessInfo.processInfo.environment
            environment["PGPASSFILE"] = self.cluster.passwordFile
            let child = try ChildProcess(
                Binaries.todod,
                ["migrate", "--from", "sqlite:\(embedded.dataDirectory)/todos.sqlite", "--to", self.cluster.tcpURL(database: database)] + arguments,
                environment: environment, stdout: output, stderr: errors)
            let status = await child.waitForExit(timeout: .seconds(120)) ?? -1
            await output.waitForEndOfFile()
            await errors.waitForEndOfFile()
            return CommandResult(status: status, stdout: output.text, stderr: errors.text)
        }
        let moved = try await migrate([])
        #expect(moved.status == 0 && moved.stdout.contains("copied 20000 items"), "\(moved)")
        let again = try await migrate([])
        #expect(again.status == 73 && again.stderr.contains("not empty"), "a second copy is refused: \(again)")
        #expect(try await migrate(["--force"]).status == 0)

        let shared = try await instance("laptop", database: database)
        let exportedAfter = try await todoctl("export", "--format", "taskwarrior", socket: shared.socket)
        #expect(exportedAfter.stdout == exportedBefore.stdout, "the same items, ids and identities")
        #expect(try await todoctl("view", "ls", socket: shared.socket).stdout.contains("home"))
        // The history came along: undo takes back the last step made before the move.
        let undone = try await todoctl("undo", socket: shared.socket)
        #expect(undone.stdout.contains("task 7"), "\(undone)")
    }

    @Test func threeInstancesTakingAThousandConcurrentCommandsAgreeAndLoseNothing() async throws {
        let database = try cluster.createDatabase("concurrent")
        let names = ["a", "b", "c"]
        var instances: [DaemonProcess] = []
        for name in names { instances.append(try await instance(name, database: database)) }
        let sockets = instances.map(\.socket)

        // Each client adds items and marks some of its own done, on its own
        // instance, all at once: every acknowledged add must be there, once.
        let acknowledged = try await withThrowingTaskGroup(of: [String: Bool].self) { group in
            for (index, socket) in sockets.enumerated() {
                group.addTask {
                    var mine: [String: Bool] = [:]
                    var ids: [String: String] = [:]
                    for step in 0..<334 {
                        if step % 4 == 3, let (title, id) = ids.randomElement() {
                            let done = try await todoctl("done", id, socket: socket)
                            if done.status == 0 { mine[title] = true }
                            ids[title] = nil
                        } else {
                            let title = "\(names[index])-\(step)"
                            let added = try await todoctl("add", "--literal", title, socket: socket)
                            guard added.status == 0 else { continue }
                            mine[title] = false
                            ids[title] = added.stdout.split(separator: " ").first.map(String.init)
                        }
                    }
                    return mine
                }
            }
            var all: [String: Bool] = [:]
            for try await part in group { all.merge(part) { $1 } }
            return all
        }
        #expect(acknowledged.count > 600)

        // Every instance converges to the same list, which holds every acknowledged edit.
        var listings: [[String]] = []
        for socket in sockets {
            var rows: [String] = []
            for _ in 0..<100 {
                rows = try await listing(socket)
                if rows.count >= acknowledged.count { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            listings.append(rows)
        }
        #expect(listings[1] == listings[0] && listings[2] == listings[0], "the instances disagree")
        let rows = listings[0]
        for (title, done) in acknowledged {
            let matching = rows.filter { $0.hasSuffix(" \(title)") }
            #expect(matching.count == 1, "\(title) appears \(matching.count) times")
            if done { #expect(matching.first?.contains(" 1 ") == true || matching.first?.contains(" true ") == true, "\(title) should be done: \(matching)") }
        }
        #expect(Set(rows.map { $0.split(separator: " ")[0] }).count == rows.count, "ids are unique")
        // The change log is one serial history: every change of an item
        // starts from the state the item's previous change left (no update
        // was planned on a state another instance had already changed).
        let broken = try cluster.psql(
            """
            WITH c AS (
                SELECT l.revision, t.n, coalesce(t.x->'after'->>'id', t.x->'before'->>'id')::bigint AS id,
                       t.x->'before' AS before, t.x->'after' AS after
                FROM change_log l, jsonb_array_elements(l.change->'changes') WITH ORDINALITY AS t(x, n))
            SELECT count(*) FROM (
                SELECT before, lag(after) OVER w AS previous, row_number() OVER w AS k FROM c
                WINDOW w AS (PARTITION BY id ORDER BY revision, n)) s
            WHERE before IS DISTINCT FROM previous
            """, database: database)
        #expect(broken.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        // ... made by all three at once: the instances take turns in it.
        let turns = try cluster.psql(
            "SELECT count(*) FROM (SELECT instance, lag(instance) OVER (ORDER BY revision) AS previous FROM change_log) s WHERE instance <> previous",
            database: database)
        #expect((Int(turns.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 30, "turns: \(turns)")
        // A fresh instance reads the same list straight from the store.
        let late = try await instance("late", database: database)
        #expect(try await listing(late.socket) == listings[0])
    }
}
