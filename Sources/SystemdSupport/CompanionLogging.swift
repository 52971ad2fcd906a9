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

    /// For a command a person runs in a terminal that also does a
    /// service's work (`todoctl sync add` syncs once): its log lines go to
    /// the journal only, where the service's go, and the terminal gets the
    /// command's own sentences. Where no journald listens they are dropped;
    /// what matters is also in what the command prints and in its status.
    public static func bootstrapToJournal(identifier: String, fieldPrefix: String) {
        LoggingSystem.bootstrap { _ in JournalLogHandler(identifier: identifier, fieldPrefix: fieldPrefix) }
    }
}
