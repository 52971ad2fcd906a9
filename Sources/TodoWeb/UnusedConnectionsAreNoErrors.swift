import Logging
import NIOCore

/// The logger Hummingbird handles each connection with: todod-web's own,
/// but for one entry that is no error.
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
    private var base: Logger
    /// None of its own: `base`'s handler adds its provider's.
    var metadataProvider: Logger.MetadataProvider?

    init(_ base: Logger) {
        self.base = base
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { [:] }
        set { for (key, value) in newValue { base[metadataKey: key] = value } }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var level = event.level
        if Self.isAnUnusedConnection(event) { level = .debug }
        base.log(
            level: level, event.message, metadata: event.metadata, source: event.source, file: event.file, function: event.function,
            line: event.line)
    }

    /// The entry an unused connection makes: its message and error type.
    static func isAnUnusedConnection(_ event: LogEvent) -> Bool {
        guard event.message.description == "Error handling upgrade result",
            case .string(let type) = event.metadata?["error.type"]
        else { return false }
        return type == "\(ChannelError.inappropriateOperationForState)"
    }
}
