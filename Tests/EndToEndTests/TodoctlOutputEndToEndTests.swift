import Foundation
import Testing
import TodoProtocol

/// todoctl's status, shared-view, completion and colour behaviour, against a real todod.
@Suite struct TodoctlOutputEndToEndTests {
    @Test func statusSaysWhatTheDaemonIsDoing() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "one", socket: daemon.socket)
        _ = try await todoctl("add", "two", socket: daemon.socket)

        let human = try await todoctl("status", socket: daemon.socket)
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.stdout.contains("server:   todod "), "\(human.stdout)")
        #expect(human.stdout.contains("socket:   \(daemon.socket)"), "\(human.stdout)")
        #expect(human.stdout.contains("data:     \(daemon.dataDirectory)"), "\(human.stdout)")
        #expect(human.stdout.contains("items:    2"), "\(human.stdout)")
        #expect(human.stdout.contains("clients:  0 other connections, 0 subscriptions"), "\(human.stdout)")
        #expect(human.stdout.contains("revision: 2 (epoch "), "\(human.stdout)")

        let json = try await todoctl("status", "--json", socket: daemon.socket)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["items"] as? Int == 2)
        #expect(object["revision"] as? Int == 2)
        #expect(object["protocol"] as? String == "1.0")
    }

    @Test func filterAndSortChangeTheSharedViewForEveryone() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        for title in ["pears", "apples", "figs"] { _ = try await todoctl("add", title, socket: daemon.socket) }
        _ = try await todoctl("done", "3", socket: daemon.socket)

        let sorted = try await todoctl("sort", "title", socket: daemon.socket)
        #expect(sorted.status == 0, "\(sorted.stderr)")
        #expect(sorted.stdout.hasPrefix("view main · filter all · sort title\n2  [ ] apples\n3  [x] figs\n1  [ ] pears\n"), "\(sorted.stdout)")
        let filtered = try await todoctl("filter", "active", socket: daemon.socket)
        #expect(filtered.stdout.hasPrefix("view main · filter active · sort title\n2  [ ] apples\n1  [ ] pears\n2 items left"), "\(filtered.stdout)")
        // Another client's plain `ls` shows the shared view as set.
        let list = try await todoctl("ls", socket: daemon.socket)
        #expect(list.stdout == filtered.stdout)
        // A bad value is a usage error (64), naming the choices.
        let bad = try await todoctl("filter", "someday", socket: daemon.socket)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("all"), "\(bad.stderr)")
    }

    @Test func theBashCompletionLoadsAndCompletesCommands() async throws {
        let script = try await todoctl("completion", "bash", socket: "/nonexistent")
        #expect(script.status == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("todoctl-completion-\(UUID()).bash")
        try script.stdout.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // Load it in a real bash and ask it to complete "todoctl st".
        let output = OutputCollector()
        let errors = OutputCollector()
        let bash = try ChildProcess(
            URL(fileURLWithPath: "/bin/bash"),
            ["--norc", "-c", """
                set -e
                source '\(file.path)'
                complete -p todoctl
                COMP_WORDS=(todoctl st); COMP_CWORD=1; COMP_LINE='todoctl st'; COMP_POINT=${#COMP_LINE}
                PATH='\(Binaries.todoctl.deletingLastPathComponent().path)':$PATH
                $(complete -p todoctl | sed -E 's/.*-F ([^ ]+).*/\\1/') todoctl st todoctl
                printf '%s\\n' "${COMPREPLY[@]}"
                """],
            stdout: output, stderr: errors)
        #expect(await bash.waitForExit(timeout: .seconds(30)) == 0, "\(errors.text)")
        await output.waitForEndOfFile()
        #expect(output.text.contains("-F _todoctl todoctl"), "\(output.text)")
        #expect(output.text.split(separator: "\n").contains("status"), "\(output.text)")
        #expect(errors.text.isEmpty, "\(errors.text)")
        for shell in ["zsh", "fish"] {
            let other = try await todoctl("completion", shell, socket: "/nonexistent")
            #expect(other.status == 0 && other.stdout.contains("todoctl"), "\(shell)")
        }
    }

    /// `todoctl call METHOD` completes the method names of the registry.
    @Test func theBashCompletionCompletesCallsMethodsFromTheRegistry() async throws {
        let script = try await todoctl("completion", "bash", socket: "/nonexistent")
        #expect(script.status == 0)
        for name in ProtocolMethods.names {
            #expect(script.stdout.contains("'\(name)'"), "the script does not offer \(name)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("todoctl-completion-\(UUID()).bash")
        try script.stdout.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        for (word, expected) in [("todo.a", ["todo.add", "todo.addNote"]), ("view.s", ["view.subscribe", "view.setOptions", "view.save"])] {
            let output = OutputCollector()
            let errors = OutputCollector()
            let bash = try ChildProcess(
                URL(fileURLWithPath: "/bin/bash"),
                // Not under `set -e`: the generated function lets some of its commands fail.
                ["--norc", "-c", """
                    source '\(file.path)' || exit 1
                    COMP_WORDS=(todoctl call \(word)); COMP_CWORD=2; COMP_LINE='todoctl call \(word)'; COMP_POINT=${#COMP_LINE}
                    PATH='\(Binaries.todoctl.deletingLastPathComponent().path)':$PATH
                    $(complete -p todoctl | sed -E 's/.*-F ([^ ]+).*/\\1/') todoctl \(word) call
                    printf '%s\\n' "${COMPREPLY[@]}"
                    """],
                stdout: output, stderr: errors)
            #expect(await bash.waitForExit(timeout: .seconds(30)) == 0, "\(errors.text)")
            await output.waitForEndOfFile()
            #expect(output.text.split(separator: "\n").map(String.init).sorted() == expected.sorted(), "\(word): \(output.text)")
        }
    }

    @Test func colourOnlyWhereItBelongs() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "milk", socket: daemon.socket)
        _ = try await todoctl("done", "1", socket: daemon.socket)
        let escape = "\u{1B}["

        // Not a terminal: plain, unless asked.
        let piped = try await todoctl("ls", socket: daemon.socket)
        #expect(!piped.stdout.contains(escape) && piped.stdout.contains("1  [x] milk"), "\(piped.stdout)")
        let forced = try await todoctl("ls", "--color=always", socket: daemon.socket)
        #expect(forced.stdout.contains(escape) && forced.stdout.contains("✔"), "\(forced.stdout)")

        // A real terminal (script(1) gives todoctl a pty): colour, except
        // with NO_COLOR, TERM=dumb or --color=never.
        func onTerminal(_ environment: [String: String], _ extra: String = "") async throws -> String {
            let output = OutputCollector()
            var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            if environment["NO_COLOR"] == nil { merged.removeValue(forKey: "NO_COLOR") }
            let command = "'\(Binaries.todoctl.path)' --socket '\(daemon.socket)' ls \(extra)"
            let child = try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], environment: merged, stdout: output)
            #expect(await child.waitForExit(timeout: .seconds(30)) == 0)
            await output.waitForEndOfFile()
            return output.text
        }
        #expect(try await onTerminal(["TERM": "xterm-256color"]).contains(escape))
        #expect(try await !onTerminal(["TERM": "xterm-256color", "NO_COLOR": "1"]).contains(escape))
        #expect(try await !onTerminal(["TERM": "dumb"]).contains(escape))
        #expect(try await !onTerminal(["TERM": "xterm-256color"], "--color=never").contains(escape))
    }
}
