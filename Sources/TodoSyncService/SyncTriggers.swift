import Synchronization

/// Why the next round runs, gathered until it starts: any number of list
/// changes and polls that come while a round runs make one round after it.
public final class SyncTriggers: Sendable {
    public enum Reason: Sendable { case list, poll }

    private let wanted = Mutex<(list: Bool, poll: Bool)>((false, false))
    private let wake: AsyncStream<Void>.Continuation
    let wakes: AsyncStream<Void>

    public init() {
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    public func request(_ reason: Reason) {
        wanted.withLock { wanted in
            switch reason {
            case .list: wanted.list = true
            case .poll: wanted.poll = true
            }
        }
        wake.yield()
    }

    /// What was requested since the last call (and clears it); nil when nothing.
    func take() -> (list: Bool, poll: Bool)? {
        wanted.withLock { wanted in
            defer { wanted = (false, false) }
            return wanted.list || wanted.poll ? wanted : nil
        }
    }
}
