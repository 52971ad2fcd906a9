import Logging

/// Logging for todod's companion services (todod-sync, todod-web): native
/// journal entries under systemd, lines on standard error elsewhere.
public enum CompanionLogging {
    /// - Parameters:
    ///   - identifier: `SYSLOG_IDENTIFIER`, e.g. "todod-web".
    ///   - fieldPrefix: put before each metadata key in the journal, e.g. "TODOD_WEB_".
    public static func bootstrap(identifier: String, fieldPrefix: String) {
        let toJournal = JournalLogHandler.standardErrorIsJournal
        LoggingSystem.bootstrap { label in
            if toJournal { return JournalLogHandler(identifier: identifier, fieldPrefix: fieldPrefix) }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
    }
}
