import CalDAVServerSupport
import Foundation
import Testing

/// The soak's short version: todod-sync running as the service does, for
/// a minute of edits on both sides (one here every 0.2 s, one on the server
/// every 0.5 s), keeps its memory flat (the last third of the samples at
/// most 1.25 times the first, after the first round's growth), and the list
/// and the server agree at the end. `scripts/bench sync --soak-minutes N`
/// is the long one.
extension SyncEndToEndTests {
@Suite struct SyncSoakEndToEndTests {
    @Test func memoryStaysFlatUnderEditsOnBothSides() async throws {
        let server = try CalDAVTestServer.radicale()
        defer { server.stop() }
        let list = try SyncedList(server: server)
        try await list.start()
        for index in 1...20 { _ = try await list.todoctl("add", "item \(index)") }
        try await list.syncNow()
        let service = try ChildProcess(
            Binaries.todoSync, ["run", "--socket", list.daemon.socket],
            environment: ProcessInfo.processInfo.environment.merging(list.environment) { $1 }, stdout: OutputCollector(),
            stderr: OutputCollector())
        defer { service.signal(SIGTERM) }
        var samples: [Int] = []
        let end = ContinuousClock.now + .seconds(30)
        var tick = 0
        while ContinuousClock.now < end {
            tick += 1
            _ = try await list.todoctl("modify", "\(1 + tick % 20)", "soaked \(tick)")
            if tick % 3 == 0 {
                _ = try server.phone("calendar.save_todo(summary='phone \(tick)')")
            }
            if tick % 5 == 0, let kib = Self.residentKiB(service.pid) { samples.append(kib) }
        }
        service.signal(SIGTERM)
        _ = await service.waitForExit(timeout: .seconds(30))
        #expect(samples.count >= 6, "\(samples)")
        let third = max(1, samples.count / 3)
        let first = Double(samples.prefix(third).reduce(0, +)) / Double(third)
        let last = Double(samples.suffix(third).reduce(0, +)) / Double(third)
        #expect(last <= first * 1.25, "resident KiB over the half minute: \(samples)")
        try await list.syncNow()
        #expect(try await list.disagreements() == [])
    }

    static func residentKiB(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}
}
