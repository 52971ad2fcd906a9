import Logging
import NIOCore

/// The log handler Hummingbird handles each connection with: todod-web's
/// own, but for one entry that is no error.
///
/// Browsers open connections ahead of need and close them unused, one or
/// two on every page load. SwiftNIO's upgrade handler is then removed
/// before it decided anything, and fails the upgrade's result with
/// `ChannelError.inappropriateOperationForState`; Hummingbird logs that as
/// "Error handling upgrade result" at error level (it spares only
/// `inputClosed`). Nothing went wrong, so that entry is kept at debug
/// level, for whoever looks with `--log-level debug`; every other entry
/// passes as it is.
struct UnusedConnectionsAreNoErrors: LogHandler {
    private var base: any LogHandler

    init(_ base: any LogHandler) {
        self.base = base
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard Self.isAnUnusedConnection(event) else { return base.log(event: event) }
        guard base.logLevel <= .debug else { return }
        var event = event
        event.level = .debug
        base.log(event: event)
    }

    /// The entry an unused connection makes: its message and error type.
    static func isAnUnusedConnection(_ event: LogEvent) -> Bool {
        guard event.message.description == "Error handling upgrade result",
            case .string(let type) = event.metadata?["error.type"]
        else { return false }
        return type == "\(ChannelError.inappropriateOperationForState)"
    }
}
