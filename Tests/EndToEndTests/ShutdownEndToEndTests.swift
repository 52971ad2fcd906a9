import Foundation
import Testing

/// SIGTERM: clients are told, the daemon exits 0, and a restarted daemon
/// has every acknowledged item.
@Suite struct ShutdownEndToEndTests {
    @Test func sigtermTellsClientsExitsCleanlyAndKeepsEverything() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        for title in ["one", "two", "three"] {
            #expect(try await todoctl("add", title, socket: daemon.socket).status == 0)
        }
        #expect(try await todoctl("done", "2", socket: daemon.socket).status == 0)

        let client = try RawConnection(path: daemon.socket, readGreeting: true)
        try client.send(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe"}"# + "\n")
        _ = try client.readMessage()

        #expect(try await daemon.terminate() == 0, "\(daemon.log.text)")
        let notice = try client.readMessage()
        #expect(notice["method"] as? String == "server.shutdown")
        #expect(try client.readLine() == nil)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket), "the socket file is removed on exit")

        try await daemon.start()
        let listed = try await todoctl("ls", socket: daemon.socket)
        #expect(listed.stdout == "view main · filter all · sort created\n1  [ ] one\n2  [x] two\n3  [ ] three\n2 items left\n")
        #expect(try await daemon.terminate() == 0)
    }

    @Test func aSecondDaemonDoesNotStealARunningOnesSocket() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let log = OutputCollector()
        let second = try ChildProcess(
            Binaries.todod, ["--socket", daemon.socket, "--data-dir", daemon.dataDirectory + "-2", "--config", "/dev/null"], stderr: log)
        let status = await second.waitForExit(timeout: .seconds(30))
        #expect(status != nil && status != 0)
        #expect(await log.wait { $0.contains("another todod is already serving") }, "\(log.text)")
        #expect(try await todoctl("ls", socket: daemon.socket).status == 0)
    }
}
