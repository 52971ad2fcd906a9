import TodoProtocol

/// Follows todod across its restarts: connects, runs a session (subscribe,
/// then read its events) while connected, and when todod goes away (a
/// restart, a crash, socket activation starting it again) connects again,
/// every `retryInterval`, for as long as `patience` allows.
///
/// Written once for every client that stays: `todoctl watch`, `todoctl
/// notify`, todod-sync. What each says about an outage is its own
/// (`Event`); when to try again, how long, and which failures end the
/// following are decided here.
public struct DaemonFollower: Sendable {
    /// What happened to the connection, for the client to word (the journal,
    /// a status line, the screen).
    public enum Event: Sendable {
        /// The session ended or could not start: the first failure of an
        /// outage, once (nil when todod ended the session itself, as on
        /// `server.shutdown`).
        case lost((any Error)?)
        /// A session started again after `lost`.
        case reached
        /// todod answers that it will not start (`server.badConfiguration`):
        /// each new message once. It is waited out like an absent todod: the
        /// user fixes the file and restarts it.
        case refused(RPCError)
    }

    /// `patience` ran out with todod still away.
    public struct GaveUp: Error, CustomStringConvertible {
        /// The last refusal, when todod was there but would not start.
        public var refusal: RPCError?
        public var lastError: (any Error)?
        public var description: String { refusal?.message ?? lastError.map { "\($0)" } ?? "todod went away" }
    }

    public var socketPath: String
    public var retryInterval: Duration
    /// How long to keep trying after todod went away; nil: for as long as the task runs.
    public var patience: Duration?
    /// Whether a todod that cannot be reached before the first session ends
    /// the following at once (`todoctl watch` at a mistyped socket) rather
    /// than being waited for (a service started before todod).
    public var firstSessionRequired: Bool

    public init(socketPath: String, retryInterval: Duration, patience: Duration? = nil, firstSessionRequired: Bool = false) {
        self.socketPath = socketPath
        self.retryInterval = retryInterval
        self.patience = patience
        self.firstSessionRequired = firstSessionRequired
    }

    /// Runs `session` on each connection, once todod has greeted it, until
    /// the task is cancelled (then throws `CancellationError`), patience
    /// runs out (`GaveUp`), or a failure that does not mean todod went away
    /// is thrown on: one `isTodoGone` does not accept (by default,
    /// `ClientError.endsTheConnection`). A session that returns means todod
    /// ended it (`server.shutdown`), and is followed by the next.
    public func run(
        isTodoGone: @escaping @Sendable (any Error) -> Bool = { ($0 as? ClientError)?.endsTheConnection ?? false },
        onEvent: @escaping @Sendable (Event) async -> Void = { _ in },
        session: @escaping @Sendable (TodoConnection) async throws -> Void
    ) async throws {
        var hadSession = false
        /// When the outage began; nil while connected.
        var outage: ContinuousClock.Instant?
        var refusal: RPCError?
        while true {
            try Task.checkCancellation()
            let greeted = Greeted()
            var failure: (any Error)?
            do {
                try await TodoConnection.with(socketPath: socketPath) { [wasAway = outage != nil] daemon in
                    // Greeted, not merely connected: under socket activation a
                    // connection waits in the backlog for whichever todod comes,
                    // and a todod that will not start refuses here.
                    _ = try await daemon.maximumLineBytes()
                    await greeted.mark()
                    if wasAway { await onEvent(.reached) }
                    try await session(daemon)
                }
            } catch {
                failure = error
            }
            // A session cancelled ends as if todod had ended it: nothing to say.
            if Task.isCancelled { throw CancellationError() }
            let hadThisSession = await greeted.value
            if hadThisSession {
                hadSession = true
                refusal = nil
                outage = nil
            }
            if let failure {
                let refused = Self.badConfiguration(failure)
                if firstSessionRequired && !hadSession { throw failure }
                guard refused != nil || isTodoGone(failure) else { throw failure }
                if let refused {
                    if refusal?.message != refused.message { await onEvent(.refused(refused)) }
                    refusal = refused
                } else if outage == nil {
                    await onEvent(.lost(failure))
                }
            } else if outage == nil {
                await onEvent(.lost(nil))
            }
            let began = outage ?? .now
            outage = began
            if let patience, ContinuousClock.now - began >= patience { throw GaveUp(refusal: refusal, lastError: failure) }
            try await Task.sleep(for: retryInterval)
        }
    }

    private static func badConfiguration(_ error: any Error) -> RPCError? {
        if case ClientError.refused(let refused) = error, refused.code == RPCError.Code.badConfiguration { return refused }
        return nil
    }

    /// Whether todod greeted this attempt's connection.
    private actor Greeted {
        private(set) var value = false
        func mark() { value = true }
    }
}

extension ClientError {
    /// Whether the connection to todod is gone (rather than one call refused).
    public var endsTheConnection: Bool {
        switch self {
        case .daemonUnreachable, .untrustedServer, .connectionClosed, .stoppedBeforeAnswering, .timedOut: true
        case .refused, .requestTooLong, .malformedReply: false
        }
    }
}
