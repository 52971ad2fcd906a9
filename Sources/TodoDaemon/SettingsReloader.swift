import Logging
import SystemdSupport

/// Re-reads the configuration on SIGHUP (`systemctl --user reload todod`)
/// and applies what changed, telling systemd `RELOADING=1`, then `READY=1`.
///
/// A file that cannot be used changes nothing: the error goes to the journal,
/// and todod keeps running with what it had.
public actor SettingsReloader {
    private var current: DaemonSettings
    private let load: @Sendable () throws(DaemonSettings.Invalid) -> DaemonSettings
    private let path: String
    private let host: ListOwner
    private let server: TodoServer
    private let logLevel: SharedLogLevel
    private let notifier: ServiceNotifier
    private let status: StatusReporter
    private let logger: Logger

    public init(
        current: DaemonSettings, load: @escaping @Sendable () throws(DaemonSettings.Invalid) -> DaemonSettings,
        path: String, host: ListOwner, server: TodoServer, logLevel: SharedLogLevel,
        notifier: ServiceNotifier, status: StatusReporter, logger: Logger
    ) {
        self.current = current
        self.load = load
        self.path = path
        self.host = host
        self.server = server
        self.logLevel = logLevel
        self.notifier = notifier
        self.status = status
        self.logger = logger
    }

    public func reload() async {
        notifier.reloading()
        let statusText = await status.currentText()
        defer {
            notifier.ready(status: statusText)
            status.sent(statusText)
        }
        let next: DaemonSettings
        do {
            next = try load()
        } catch {
            logger.error(
                "reload: the configuration cannot be used; keeping the settings in force",
                metadata: ["config": "\(path)", "problem": "\(error.description)"])
            return
        }
        logLevel.current = next.logLevel
        await host.changeReminderAge(to: next.reminderHours * 3600)
        await host.changeDesktopSettings(next.desktop, dueSoonLead: next.remindBeforeMinutes * 60)
        server.apply(limitsOf: next)
        await host.changeFields(next.fields)
        var changed = DaemonSettings.Name.allCases.filter { next.value(of: $0) != current.value(of: $0) }.map(\.rawValue)
        let fieldsBefore = Dictionary(current.userFields.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        let fieldsAfter = Dictionary(next.userFields.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        for name in Set(fieldsBefore.keys).union(fieldsAfter.keys).sorted() where fieldsBefore[name] != fieldsAfter[name] {
            changed.append(DaemonSettings.fieldPrefix + name + (fieldsAfter[name] == nil ? " (removed; its values are kept)" : ""))
        }
        for name in DaemonSettings.Name.allCases where name.needsRestart && changed.contains(name.rawValue) {
            logger.warning("reload: \(name.rawValue) changes at the next start of todod, not now", metadata: ["config": "\(path)"])
        }
        current = next
        logger.notice(
            "reload: configuration applied",
            metadata: [
                "config": "\(path)",
                "changed": "\(changed.isEmpty ? "nothing" : changed.map { DaemonSettings.Name(rawValue: $0).map { "\($0.rawValue)=\(next.value(of: $0))" } ?? $0 }.joined(separator: " "))",
            ])
    }
}

extension DaemonSettings {
    /// A setting's value as the file would write it.
    public func value(of name: Name) -> String {
        switch name {
        case .reminderHours: "\(reminderHours)"
        case .logLevel: logLevel.rawValue
        case .lineTimeout: "\(lineTimeout)"
        case .outboxSoftLimit: "\(outboxSoftLimit)"
        case .outboxHardLimit: "\(outboxHardLimit)"
        case .stallTimeout: "\(stallTimeout)"
        case .maxConnections: "\(maxConnections)"
        case .notifications: notifications ? "on" : "off"
        case .quietHours: quietHours?.description ?? "none"
        case .remindBefore: "\(remindBeforeMinutes)"
        case .store: store ?? "default"
        case .instance: instance ?? "default"
        }
    }
}
