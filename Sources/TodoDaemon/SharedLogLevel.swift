import Logging
import Synchronization

/// The daemon's log level, one for every logger, changeable while it runs
/// (a reloaded configuration sets it).
public final class SharedLogLevel: Sendable {
    private let level: Mutex<Logger.Level>

    public init(_ level: Logger.Level) {
        self.level = Mutex(level)
    }

    public var current: Logger.Level {
        get { level.withLock { $0 } }
        set { level.withLock { $0 = newValue } }
    }

    /// `handler`, answering to this level instead of its own.
    public func controlling<Handler: LogHandler>(_ handler: Handler) -> LevelControlledLogHandler<Handler> {
        LevelControlledLogHandler(wrapped: handler, level: self)
    }
}

/// A log handler whose level is the daemon's shared one. Setting `logLevel`
/// on one logger still changes only that logger, as swift-log expects.
public struct LevelControlledLogHandler<Wrapped: LogHandler>: LogHandler {
    private var wrapped: Wrapped
    private let level: SharedLogLevel
    private var ownLevel: Logger.Level?

    init(wrapped: Wrapped, level: SharedLogLevel) {
        self.wrapped = wrapped
        self.level = level
    }

    public var logLevel: Logger.Level {
        get { ownLevel ?? level.current }
        set { ownLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        wrapped.log(event: event)
    }
}
