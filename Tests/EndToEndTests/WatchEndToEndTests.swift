import Foundation
import Testing

/// `todoctl watch` sees what other clients do, pushed, not polled.
@Suite struct WatchEndToEndTests {
    @Test func aWatcherSeesAnAddFromAnotherClient() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "already there", socket: daemon.socket)

        let output = OutputCollector()
        let watch = try ChildProcess(Binaries.todoctl, ["--socket", daemon.socket, "watch"], stdout: output)
        defer { watch.signal(SIGTERM) }

        #expect(await output.wait { $0.contains("already there") && $0.contains("1 item left") }, "\(output.text)")
        _ = try await todoctl("add", "from elsewhere", socket: daemon.socket)
        #expect(await output.wait { $0.contains("2  [ ] from elsewhere") && $0.contains("2 items left") }, "\(output.text)")
        _ = try await todoctl("done", "1", socket: daemon.socket)
        #expect(await output.wait { $0.contains("1  [x] already there") }, "\(output.text)")
    }
}
