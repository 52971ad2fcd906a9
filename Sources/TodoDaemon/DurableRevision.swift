import Synchronization

/// The newest revision that is durable and announced, and the replies
/// waiting for a newer one.
///
/// It lives beside the host actor rather than in it: every reply to an edit
/// waits here, and under load those waits would otherwise queue on the actor
/// between the commands they wait for. The host moves it forward after each
/// sync; waiting and checking need no actor turn.
final class DurableRevision: Sendable {
    private struct State {
        var revision: Int
        var failure: (any Error)?
        var waiters: [(revision: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let state: Mutex<State>

    init(_ revision: Int) {
        state = Mutex(State(revision: revision))
    }

    var current: Int { state.withLock { $0.revision } }

    /// Replies waiting (for tests).
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Returns once `revision` is durable; throws if a sync failed first.
    func wait(for revision: Int) async throws {
        if let ready = state.withLock({ Self.outcome(for: revision, $0) }) { return try ready.get() }
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Void, any Error>? in
                if let ready = Self.outcome(for: revision, state) { return ready }
                state.waiters.append((revision, continuation))
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Everything up to `revision` is durable: its waiters go on.
    func advance(to revision: Int) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.revision = max(state.revision, revision)
            let (ready, waiting) = state.waiters.partitioned { $0.revision <= revision }
            state.waiters = waiting
            return ready.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// A sync failed: nothing newer can be acknowledged, now or later.
    func fail(_ error: any Error) {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.failure = error
            defer { state.waiters = [] }
            return state.waiters.map(\.continuation)
        }
        for continuation in waiting { continuation.resume(throwing: error) }
    }

    private static func outcome(for revision: Int, _ state: State) -> Result<Void, any Error>? {
        if revision <= state.revision { return .success(()) }
        if let failure = state.failure { return .failure(failure) }
        return nil
    }
}

extension Array {
    /// The elements that satisfy `belongs`, and the rest, each in order.
    fileprivate func partitioned(by belongs: (Element) -> Bool) -> ([Element], [Element]) {
        var matching: [Element] = []
        var rest: [Element] = []
        for element in self {
            if belongs(element) { matching.append(element) } else { rest.append(element) }
        }
        return (matching, rest)
    }
}
