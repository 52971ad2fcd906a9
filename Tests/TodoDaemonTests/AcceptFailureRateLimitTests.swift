import Testing
@testable import TodoDaemon

/// Accept failures are logged at most once per interval, each line counting
/// the failures no line reported, and the end of a failure is logged once.
@Suite struct AcceptFailureRateLimitTests {
    let start = ContinuousClock.now

    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test func aStormOfFailuresIsOneLinePerInterval() {
        var limit = AcceptFailureRateLimit(interval: .seconds(10))
        #expect(limit.failed(at: at(0)) == .init(notLogged: 0))
        for step in 1..<1000 {
            #expect(limit.failed(at: at(Double(step) * 0.009)) == nil)
        }
        #expect(limit.failed(at: at(10)) == .init(notLogged: 999))
        #expect(limit.failed(at: at(11)) == nil)
    }

    @Test func theEndOfAFailureIsLoggedOnceWithWhatWasNotLogged() {
        var limit = AcceptFailureRateLimit(interval: .seconds(10))
        #expect(limit.accepted(at: at(0)) == nil, "nothing to say while all is well")
        #expect(limit.failed(at: at(1)) == .init(notLogged: 0))
        #expect(limit.failed(at: at(2)) == nil)
        #expect(limit.failed(at: at(3)) == nil)
        #expect(limit.accepted(at: at(4)) == .init(notLogged: 2))
        #expect(limit.accepted(at: at(5)) == nil)
    }

    @Test func flappingStaysWithinTwoLinesPerInterval() {
        var limit = AcceptFailureRateLimit(interval: .seconds(10))
        var lines = 0
        for step in 0..<100 {
            let now = at(Double(step) * 0.05)  // five seconds of fail, accept, fail, accept…
            if limit.failed(at: now) != nil { lines += 1 }
            if limit.accepted(at: now + .milliseconds(10)) != nil { lines += 1 }
        }
        #expect(lines == 2)
    }
}

/// The connections todod offers: the configured number, lowered to what the
/// file-descriptor limit leaves after todod's own descriptors.
@Suite struct FileDescriptorLimitTests {
    @Test func theLimitLowersTheConfiguredNumber() {
        #expect(FileDescriptorLimit.servableConnections(configured: 256, softLimit: 64, reserve: 38) == 26)
        #expect(FileDescriptorLimit.servableConnections(configured: 256, softLimit: 1024, reserve: 38) == 256)
        #expect(FileDescriptorLimit.servableConnections(configured: 256, softLimit: nil, reserve: 38) == 256)
        #expect(FileDescriptorLimit.servableConnections(configured: 256, softLimit: 20, reserve: 38) == 1)
    }
}
