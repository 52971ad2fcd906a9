import CSystemd
import Glibc
import Logging

/// A swift-log handler that writes each entry to journald as structured
/// fields (`sd_journal_sendv`), not as a line of text.
///
/// Every entry carries `MESSAGE`, `PRIORITY` (syslog levels, so
/// `journalctl -p warning` filters by level), `SYSLOG_IDENTIFIER`,
/// `CODE_FILE`/`CODE_LINE`/`CODE_FUNC`, and each metadata key as a field of
/// its own, upper-cased and prefixed (`client` becomes `TODOD_CLIENT`), so
/// `journalctl --user-unit todod TODOD_CLIENT=7` finds one client's lines.
/// `MESSAGE` also ends with the metadata as `key=value`, for people reading
/// `journalctl` without `-o verbose`.
public struct JournalLogHandler: LogHandler {

    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    private let identifier: String
    private let fieldPrefix: String

    /// - Parameters:
    ///   - identifier: `SYSLOG_IDENTIFIER`, e.g. "todod".
    ///   - fieldPrefix: put before each metadata key, e.g. "TODOD_".
    public init(identifier: String, fieldPrefix: String) {
        self.identifier = identifier
        self.fieldPrefix = fieldPrefix
    }

    /// Whether standard error is the journal's stream for this process
    /// (systemd sets `JOURNAL_STREAM` to its device and inode), so native
    /// entries go to the same place the unit's output would.
    public static var standardErrorIsJournal: Bool {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = value.split(separator: ":")
        var status = stat()
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]),
            fstat(STDERR_FILENO, &status) == 0
        else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        if let error = event.error { merged["error"] = "\(error)" }

        let sortedMetadata = merged.sorted { $0.key < $1.key }
        var message = event.message.description
        for (key, value) in sortedMetadata { message += " \(key)=\(value)" }
        var fields = [
            "MESSAGE=\(message)",
            "PRIORITY=\(Self.priority(of: event.level))",
            "SYSLOG_IDENTIFIER=\(identifier)",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
            "\(fieldPrefix)SOURCE=\(event.source)",
        ]
        for (key, value) in sortedMetadata {
            fields.append("\(fieldPrefix)\(Self.fieldName(key))=\(value)")
        }
        if !Self.send(fields) {
            // No journal socket after all (a container without journald, a
            // sandbox without it): standard error, which is the journal's
            // stream, with the priority as journald reads it (`<6>`).
            var line = "<\(Self.priority(of: event.level))>\(message)\n"
            line.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
        }
    }

    /// syslog(3) priorities: journald and `journalctl -p` speak these.
    static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// A journal field name: upper-case letters, digits and underscores.
    static func fieldName(_ key: String) -> String {
        String(
            key.uppercased().unicodeScalars.map { scalar -> Character in
                ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "_"
            })
    }

    /// Whether journald's socket is there: libsystemd drops an entry
    /// silently (and says it was sent) when it is missing, as it is in a
    /// sandbox that does not mount it; then standard error, which systemd
    /// connects to the journal too, carries the line.
    private static let journalSocketExists = access("/run/systemd/journal/socket", F_OK) == 0

    /// Whether journald took the entry.
    private static func send(_ fields: [String]) -> Bool {
        guard journalSocketExists else { return false }
        var bytes = fields.flatMap(\.utf8)
        return bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            var vectors = fields.map { field in
                defer { offset += field.utf8.count }
                return iovec(iov_base: buffer.baseAddress! + offset, iov_len: field.utf8.count)
            }
            return sd_journal_sendv(&vectors, Int32(vectors.count)) >= 0
        }
    }
}
