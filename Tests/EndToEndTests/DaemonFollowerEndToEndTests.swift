import Foundation
import Synchronization
import Testing
import TodoClient
import TodoProtocol

/// `DaemonFollower`, which `todoctl watch`, `todoctl notify` and todod-sync
/// follow todod with, against the real todod stopped and started again.
@Suite struct DaemonFollowerEndToEndTests {
    private static func describe(_ event: DaemonFollower.Event) -> String {
        switch event {
        case .lost(let error?): "lost: \(error)"
        case .lost(nil): "lost"
        case .reached: "reached"
        case .refused(let refusal): "refused: \(refusal.message)"
        }
    }

    @Test func aTododStoppedAndStartedAgainIsFollowedAgainAndTheOutageSaidOnce() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let heard = Mutex<[String]>([])
        let (sessions, started) = AsyncStream<Void>.makeStream()
        let follower = DaemonFollower(socketPath: daemon.socket, retryInterval: .milliseconds(50))
        let following = Task {
            try await follower.run(onEvent: { event in heard.withLock { $0.append(Self.describe(event)) } }) { connection in
                started.yield()
                for await _ in connection.notifications {}  // until todod ends the connection
            }
        }
        var next = sessions.makeAsyncIterator()
        #expect(await next.next() != nil, "the first session")
        #expect(try await daemon.terminate() == 0)
        // However many attempts fail while todod is down, the outage is said once.
        try await daemon.start()
        #expect(await next.next() != nil, "a session again once todod is back")
        following.cancel()
        await #expect(throws: CancellationError.self) { try await following.value }
        let said = heard.withLock { $0 }
        #expect(said.count == 2 && said.first?.hasPrefix("lost") == true && said.last == "reached", "\(said)")
    }

    @Test func aSocketNobodyServesEndsAFollowingThatNeedsItsFirstSessionAndIsWaitedForOtherwise() async throws {
        let daemon = try DaemonProcess()
        let required = DaemonFollower(socketPath: daemon.socket, retryInterval: .milliseconds(50), firstSessionRequired: true)
        await #expect {
            try await required.run { _ in Issue.record("no session without todod") }
        } throws: { error in
            if case ClientError.daemonUnreachable = error { true } else { false }
        }

        let patient = DaemonFollower(socketPath: daemon.socket, retryInterval: .milliseconds(50), patience: .milliseconds(300))
        let heard = Mutex<[String]>([])
        await #expect(throws: DaemonFollower.GaveUp.self) {
            try await patient.run(onEvent: { event in heard.withLock { $0.append(Self.describe(event)) } }) { _ in
                Issue.record("no session without todod")
            }
        }
        let said = heard.withLock { $0 }
        #expect(said.count == 1 && said[0].hasPrefix("lost: cannot reach todod"), "\(said)")
    }
}
