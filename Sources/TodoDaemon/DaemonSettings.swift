import Foundation
import Logging
import TodoModel
import TodoViewModels

/// What todod's configuration file can set, and `systemctl --user reload
/// todod` changes while it runs: the reminder age, the log level and the
/// per-connection limits.
///
/// The file (`$XDG_CONFIG_HOME/todod/todod.conf`, else
/// `~/.config/todod/todod.conf`) holds `name = value` lines, `#` comments and
/// blank lines; the names are those of todod's options. A value given as an
/// option on the command line wins over the file, also after a reload.
public struct DaemonSettings: Sendable, Equatable {
    public var reminderHours: Double = 24
    public var logLevel: Logger.Level = .info
    /// Whether reminders go to the desktop (through `todoctl notify`).
    public var notifications = true
    /// Daily hours in which nothing goes to the desktop; nil for none.
    public var quietHours: QuietHours?
    /// Minutes before a due time that an item raises a "due soon" reminder; 0: never.
    public var remindBeforeMinutes: Double = 15
    // The limits' defaults are DaemonConfiguration's.
    public var lineTimeout = Self.defaultLimits.lineTimeout
    public var outboxSoftLimit = Self.defaultLimits.outboxSoftLimit
    public var outboxHardLimit = Self.defaultLimits.outboxHardLimit
    public var stallTimeout = Self.defaultLimits.stallTimeout
    public var maxConnections = Self.defaultLimits.maximumConnections
    /// Where the list is kept (`sqlite:PATH` or `postgres://…`); nil: todos.sqlite
    /// in the data directory. Read at start only.
    public var store: String?
    /// This instance's name when several share a list; nil: the host name. Read at start only.
    public var instance: String?
    /// User-defined fields, from `field.NAME = KIND "Label" [VALUES]` lines,
    /// in the file's order (see `FieldDeclaration.userDefined(name:declaredAs:)`).
    public var userFields: [FieldDeclaration] = []

    /// The built-in fields and `userFields` (checked when the file is read).
    public var fields: FieldCatalog { (try? FieldCatalog(userDefined: userFields)) ?? .builtIn }

    private static let defaultLimits = DaemonConfiguration(socketPath: "", dataDirectory: "")

    public init() {}

    /// A setting's name, in the file and as a `todod` option (`--name`).
    public enum Name: String, CaseIterable, Sendable {
        case reminderHours = "reminder-hours"
        case logLevel = "log-level"
        case lineTimeout = "line-timeout"
        case outboxSoftLimit = "outbox-soft-limit"
        case outboxHardLimit = "outbox-hard-limit"
        case stallTimeout = "stall-timeout"
        case maxConnections = "max-connections"
        case notifications = "notifications"
        case quietHours = "quiet-hours"
        case remindBefore = "remind-before"
        case store = "store"
        case instance = "instance"

        /// Settings a reload leaves for the next start: the list cannot
        /// move from one store to another under its clients.
        public var needsRestart: Bool { self == .store || self == .instance }

        /// What the setting does, as `todod --help` and todod.conf(5) say it.
        public var summary: String {
            switch self {
            case .reminderHours: "Remind of an item left undone for this many hours."
            case .logLevel: "How much to log: trace, debug, info, notice, warning, error or critical."
            case .lineTimeout: "Close a connection whose request line is unfinished after this long."
            case .outboxSoftLimit: "Coalesce a client's events once this many bytes wait for it."
            case .outboxHardLimit: "Disconnect a client once this many bytes wait for it."
            case .stallTimeout: "Disconnect a client that has read nothing for this long while data waits."
            case .maxConnections: "Serve at most this many connections at once."
            case .notifications: "Put reminders on the desktop (todoctl notify shows them): on or off."
            case .quietHours: "Hold desktop reminders back between these times, such as 22:00-07:00, or none."
            case .remindBefore: "Remind of an item this many minutes before it is due at a time of day; 0 for never."
            case .store: "Keep the list here: sqlite:PATH, or postgres://USER@HOST:PORT/DB to share it with other instances."
            case .instance: "This instance's name in a shared list's history and undo text."
            }
        }

        /// What the value is, in help and manual: "hours", "level", "bytes".
        public var valueName: String {
            switch self {
            case .reminderHours: "hours"
            case .logLevel: "level"
            case .lineTimeout, .stallTimeout: "seconds"
            case .outboxSoftLimit, .outboxHardLimit: "bytes"
            case .maxConnections: "count"
            case .notifications: "on|off"
            case .quietHours: "HH:MM-HH:MM"
            case .remindBefore: "minutes"
            case .store: "url"
            case .instance: "name"
            }
        }

        /// The default value, as it would be written in the file.
        public var defaultText: String {
            let defaults = DaemonSettings()
            return switch self {
            case .reminderHours: Self.text(defaults.reminderHours)
            case .logLevel: defaults.logLevel.rawValue
            case .lineTimeout: Self.text(defaults.lineTimeout)
            case .outboxSoftLimit: String(defaults.outboxSoftLimit)
            case .outboxHardLimit: String(defaults.outboxHardLimit)
            case .stallTimeout: Self.text(defaults.stallTimeout)
            case .maxConnections: String(defaults.maxConnections)
            case .notifications: defaults.notifications ? "on" : "off"
            case .quietHours: defaults.quietHours?.description ?? "none"
            case .remindBefore: Self.text(defaults.remindBeforeMinutes)
            case .store: "sqlite:DATA-DIR/todos.sqlite"
            case .instance: "the host name"
            }
        }

        /// `24` rather than `24.0`.
        private static func text(_ number: Double) -> String {
            number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        }

        /// The option's help: the summary and the default.
        public var help: String { "\(summary.dropLast()) (default: \(defaultText))." }
    }

    /// A value todod cannot use, said so that a person can fix it.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// Sets `name` from its text form.
    public mutating func set(_ name: Name, to text: String) throws(Invalid) {
        func positive(_ what: String) throws(Invalid) -> Double {
            guard let value = Double(text), value.isFinite, value > 0 else {
                throw Invalid("\(name.rawValue) must be \(what) more than 0, not '\(text)'")
            }
            return value
        }
        func count(_ what: String) throws(Invalid) -> Int {
            guard let value = Int(text), value > 0 else {
                throw Invalid("\(name.rawValue) must be \(what) more than 0, not '\(text)'")
            }
            return value
        }
        switch name {
        case .reminderHours: reminderHours = try positive("a number of hours")
        case .logLevel:
            guard let level = Logger.Level(rawValue: text) else {
                let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw Invalid("log-level must be one of \(levels), not '\(text)'")
            }
            logLevel = level
        case .lineTimeout: lineTimeout = try positive("a number of seconds")
        case .outboxSoftLimit: outboxSoftLimit = try count("a number of bytes")
        case .outboxHardLimit: outboxHardLimit = try count("a number of bytes")
        case .stallTimeout: stallTimeout = try positive("a number of seconds")
        case .maxConnections: maxConnections = try count("a number of connections")
        case .notifications:
            switch text {
            case "on", "yes", "true": notifications = true
            case "off", "no", "false": notifications = false
            default: throw Invalid("notifications must be on or off, not '\(text)'")
            }
        case .quietHours:
            if text == "none" {
                quietHours = nil
            } else if let hours = QuietHours(text: text) {
                quietHours = hours
            } else {
                throw Invalid("quiet-hours must be two times such as 22:00-07:00, or none, not '\(text)'")
            }
        case .remindBefore:
            guard let minutes = Double(text), minutes.isFinite, minutes >= 0, minutes <= 10_080 else {
                throw Invalid("remind-before must be a number of minutes from 0 to 10080, not '\(text)'")
            }
            remindBeforeMinutes = minutes
        case .store:
            guard !text.isEmpty else { throw Invalid("store must be sqlite:PATH or postgres://USER@HOST:PORT/DB, not empty") }
            store = text
        case .instance:
            guard !text.isEmpty, text.count <= 64, text.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
                throw Invalid("instance must be 1 to 64 letters, digits, - _ or ., not '\(text)'")
            }
            instance = text
        }
    }

    /// Checks what depends on more than one setting.
    public func validate() throws(Invalid) {
        guard outboxHardLimit >= outboxSoftLimit else {
            throw Invalid("outbox-hard-limit (\(outboxHardLimit)) must be at least outbox-soft-limit (\(outboxSoftLimit))")
        }
    }

    /// The start of a line declaring a field: `field.estimate = numeric "Estimate"`.
    public static let fieldPrefix = "field."

    /// What the view models need to decide what goes to the desktop.
    public var desktop: DesktopReminderSettings {
        DesktopReminderSettings(enabled: notifications, quietHours: quietHours)
    }

    /// The limits part, on top of where todod listens and keeps its data.
    public func applied(to configuration: DaemonConfiguration) -> DaemonConfiguration {
        var configuration = configuration
        configuration.lineTimeout = lineTimeout
        configuration.outboxSoftLimit = outboxSoftLimit
        configuration.outboxHardLimit = outboxHardLimit
        configuration.stallTimeout = stallTimeout
        configuration.maximumConnections = maxConnections
        return configuration
    }
}
