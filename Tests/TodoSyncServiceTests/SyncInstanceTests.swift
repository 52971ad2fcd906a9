import Foundation
import TestSupport
import Testing

@testable import TodoSyncService

/// Each todod's sync is named by its socket: the default socket's keeps the
/// places it always had, any other gets an instance whose name systemd
/// turns back into the socket's path (`%f` in todod-sync@.service).
@Suite struct SyncInstanceTests {
    let environment = ["XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/me"]

    @Test func theDefaultSocketIsNoInstanceWhateverTododSocketSays() {
        var environment = self.environment
        environment["TODOD_SOCKET"] = "/run/user/1000/home.sock"
        let instance = SyncInstance(socketPath: "/run/user/1000/todod/todod.sock", environment: environment)
        #expect(instance.name == nil)
        #expect(instance.serviceName == "todod-sync.service")
        #expect(SyncInstance(socketPath: "/run/user/1000//todod/./todod.sock", environment: environment).name == nil)
    }

    @Test func anotherSocketIsAnInstanceOfItsOwn() {
        let home = SyncInstance(socketPath: "/run/user/1000/home.sock", environment: environment)
        #expect(home.name == "run-user-1000-home.sock")
        #expect(home.serviceName == "todod-sync@run-user-1000-home.sock.service")
        #expect(SyncInstance(socketPath: "/run/user/1000/work/../home.sock", environment: environment) == home)
        #expect(SyncInstance(socketPath: "/run/user/1000/shop.sock", environment: environment) != home)
    }

    /// Two todods' syncs share no file: settings, password and state are
    /// each their own, and the default one's are where they always were.
    @Test func twoTododsShareNoFile() {
        let first = SyncPaths.standard(environment: environment, socketPath: "/run/user/1000/todod/todod.sock")
        let second = SyncPaths.standard(environment: environment, socketPath: "/run/user/1000/home.sock")
        #expect(first.settingsFile == "/home/me/.config/todod/sync.conf")
        #expect(first.stateFile == "/home/me/.local/state/todod-sync/sync.sqlite")
        #expect(second.settingsFile == "/home/me/.config/todod/sync/run-user-1000-home.sock/sync.conf")
        #expect(second.passwordFile == "/home/me/.config/todod/sync/run-user-1000-home.sock/sync.password")
        #expect(second.stateFile == "/home/me/.local/state/todod-sync/run-user-1000-home.sock/sync.sqlite")
        let files = [first.settingsFile, first.passwordFile, first.stateFile, first.stateDirectory + "/sync.lock"]
        let others = [second.settingsFile, second.passwordFile, second.stateFile, second.stateDirectory + "/sync.lock"]
        #expect(Set(files).isDisjoint(with: others))
    }

    /// The names are systemd's own: `systemd-escape --path`, the real
    /// program, over paths with every kind of byte a socket path may hold.
    @Test func namesAreWhatSystemdEscapeMakes() throws {
        let program = "/usr/bin/systemd-escape"
        guard FileManager.default.isExecutableFile(atPath: program) else {
            Issue.record("\(program) is missing (scripts/bootstrap tests installs systemd)")
            return
        }
        var random = SeededRandom(seed: 43)
        let pieces = ["run", "user", "1000", "todod-home", ".hidden", "a b", "ünï", "x:y", "under_score", "dots.in.name", "-lead", "\\back"]
        var paths = ["/run/user/1000/home.sock", "/tmp/todod-e2e-1/todod.sock", "/"]
        for _ in 0..<40 {
            let depth = Int.random(in: 1...4, using: &random)
            paths.append("/" + (0..<depth).map { _ in pieces.randomElement(using: &random)! }.joined(separator: "/"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["--path"] + paths
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // One name a path, separated by spaces (a space in a path is escaped).
        let expected = printed.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        try #require(expected.count == paths.count, "\(printed)")
        for (path, name) in zip(paths, expected) {
            #expect(SyncInstance.escapedPath(path) == name, "\(path)")
        }
    }
}
