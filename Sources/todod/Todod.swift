import ArgumentParser
import BuildInfo
import Foundation
import Logging
import ServiceLifecycle
import SystemdSupport
import TodoDaemon
import TodoProtocol
import TodoPostgres
import TodoSharedStore
import TodoStorage
import TodoStoreInterface


/// `todod`: parses flags, opens the store, and runs the server until SIGTERM or SIGINT.
@main
struct Todod: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todod",
        abstract: "The todod to-do daemon: owns the list and serves it on a Unix socket.",
        discussion: """
            Run it in the foreground, or as the systemd user service todod.service, which todod.socket \
            starts on the first connection (systemctl --user enable --now todod.socket). Under socket \
            activation it serves the socket systemd passes and ignores --socket. Settings can also be \
            kept in todod.conf(5); todoctl(1) is its command line.

            Stop it with SIGTERM or Ctrl-C: it finishes requests in progress, tells clients, and \
            saves everything before exiting.
            """,
        version: VersionText.full,
        subcommands: [Migrate.self, InitStore.self]
    )

    @Option(help: ArgumentHelp("The Unix socket to listen on.", valueName: "path"))
    var socket: String = DaemonConfiguration.standard().socketPath

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("The directory for todos.sqlite.", valueName: "dir"))
    var dataDirectory: String = DaemonConfiguration.standard().dataDirectory

    @Option(help: ArgumentHelp(
        "The configuration file (default: $XDG_CONFIG_HOME/todod/todod.conf, used if it exists). SIGHUP re-reads it.",
        valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp(DaemonSettings.Name.reminderHours.help, valueName: DaemonSettings.Name.reminderHours.valueName))
    var reminderHours: String?

    @Option(help: ArgumentHelp(DaemonSettings.Name.logLevel.help, valueName: DaemonSettings.Name.logLevel.valueName))
    var logLevel: String?

    @OptionGroup(title: "Desktop reminders") var desktop: Desktop

    @OptionGroup(title: "Limits") var limits: Limits

    @OptionGroup(title: "Sharing a list") var sharing: Sharing

    @Flag(help: .hidden) var printSchema = false

    /// PROTOCOL.md's method table, from the method registry.
    @Flag(help: .hidden) var printMethodTable = false

    /// todod.conf(5), from the settings' declarations (scripts/package).
    @Flag(help: .hidden) var printConfigurationManual = false

    /// Only for tests: SIGUSR2 wedges the host, to prove the watchdog.
    @Flag(help: .hidden) var testHooks = false

    /// Options and configuration-file lines share names and checks
    /// (`DaemonSettings`); an option given here wins over the file.
    struct Limits: ParsableArguments {
        @Option(help: ArgumentHelp(DaemonSettings.Name.lineTimeout.help, valueName: DaemonSettings.Name.lineTimeout.valueName))
        var lineTimeout: String?
        @Option(help: ArgumentHelp(DaemonSettings.Name.outboxSoftLimit.help, valueName: DaemonSettings.Name.outboxSoftLimit.valueName))
        var outboxSoftLimit: String?
        @Option(help: ArgumentHelp(DaemonSettings.Name.outboxHardLimit.help, valueName: DaemonSettings.Name.outboxHardLimit.valueName))
        var outboxHardLimit: String?
        @Option(help: ArgumentHelp(DaemonSettings.Name.stallTimeout.help, valueName: DaemonSettings.Name.stallTimeout.valueName))
        var stallTimeout: String?
        @Option(help: ArgumentHelp(DaemonSettings.Name.maxConnections.help, valueName: DaemonSettings.Name.maxConnections.valueName))
        var maxConnections: String?
        @Option(help: ArgumentHelp("Keep this many transactions for clients that resume.", valueName: "count"))
        var historyRevisions: Int = 1000
    }

    struct Sharing: ParsableArguments {
        @Option(help: ArgumentHelp(DaemonSettings.Name.store.help, valueName: DaemonSettings.Name.store.valueName))
        var store: String?
        @Option(help: ArgumentHelp(DaemonSettings.Name.instance.help, valueName: DaemonSettings.Name.instance.valueName))
        var instance: String?
        @Flag(
            help: ArgumentHelp(
                "Create a new shared list in the PostgreSQL database --store names, if it holds none, then serve it.",
                discussion: "Without it, todod refuses a database that holds no list: a mistyped database name must not start an empty list."))
        var initStore = false
    }

    struct Desktop: ParsableArguments {
        @Option(help: ArgumentHelp(DaemonSettings.Name.notifications.help, valueName: DaemonSettings.Name.notifications.valueName))
        var notifications: String?
        @Option(help: ArgumentHelp(DaemonSettings.Name.quietHours.help, valueName: DaemonSettings.Name.quietHours.valueName))
        var quietHours: String?
        @Option(help: ArgumentHelp(DaemonSettings.Name.remindBefore.help, valueName: DaemonSettings.Name.remindBefore.valueName))
        var remindBefore: String?
    }

    /// The options given on the command line, by setting.
    var givenSettings: [(DaemonSettings.Name, String)] {
        let given: [(DaemonSettings.Name, String?)] = [
            (.reminderHours, reminderHours), (.logLevel, logLevel), (.lineTimeout, limits.lineTimeout),
            (.outboxSoftLimit, limits.outboxSoftLimit), (.outboxHardLimit, limits.outboxHardLimit),
            (.stallTimeout, limits.stallTimeout), (.maxConnections, limits.maxConnections),
            (.notifications, desktop.notifications), (.quietHours, desktop.quietHours), (.remindBefore, desktop.remindBefore),
            (.store, sharing.store), (.instance, sharing.instance),
        ]
        return given.compactMap { name, value in value.map { (name, $0) } }
    }

    var configPath: String { config ?? DaemonSettings.defaultFilePath() }

    func validate() throws {
        guard limits.historyRevisions >= 0 else { throw ValidationError("--history-revisions must be at least 0") }
        for (name, value) in givenSettings {
            var scratch = DaemonSettings()
            do { try scratch.set(name, to: value) } catch { throw ValidationError("--\(error.description)") }
        }
    }

    func run() async throws {
        // Before todod opens anything of its own.
        FileDescriptorLimit.countInheritedDescriptors()
        if printSchema {
            // Protocol/schema/todod.schema.json is this output.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(ProtocolDescription.document) + Data("\n".utf8))
            return
        }
        if printMethodTable {
            // Protocol/PROTOCOL.md holds it between <!-- methods:begin --> and <!-- methods:end -->.
            FileHandle.standardOutput.write(Data(ProtocolDescription.methodTable.utf8))
            return
        }
        if printConfigurationManual {
            FileHandle.standardOutput.write(Data(ConfigurationManual.page.utf8))
            return
        }
        let (configPath, mustExist, overrides) = (configPath, config != nil, givenSettings)
        let loadSettings = { @Sendable () throws(DaemonSettings.Invalid) -> DaemonSettings in
            try DaemonSettings.load(file: configPath, mustExist: mustExist, overrides: overrides)
        }
        // Refuse to start rather than run with settings nobody chose; but
        // set up logging first, to say so where todod's log goes.
        var settings = DaemonSettings()
        var unusable: DaemonSettings.Invalid?
        do { settings = try loadSettings() } catch { unusable = error }
        let logLevel = SharedLogLevel(settings.logLevel)
        let toJournal = JournalLogHandler.standardErrorIsJournal
        LoggingSystem.bootstrap { label in
            if toJournal {
                return logLevel.controlling(JournalLogHandler(identifier: "todod", fieldPrefix: "TODOD_"))
            }
            return logLevel.controlling(StreamLogHandler.standardError(label: label))
        }
        let logger = Logger(label: "todod")
        let configuration = settings.applied(
            to: DaemonConfiguration(socketPath: socket, dataDirectory: dataDirectory))
        let notifier = ServiceNotifier()
        let status = StatusReporter(notifier: notifier)
        if let unusable {
            try await Self.refuseToStart(
                "\(unusable.description). Fix it, then run `systemctl --user restart todod`", notifier: notifier, logger: logger
            ) {
                if toJournal { logger.critical("\(unusable.description)") } else { FileHandle.standardError.write(Data("todod: \(unusable.description)\n".utf8)) }
            }
        }

        do {
            try FileManager.default.createDirectory(
                atPath: configuration.dataDirectory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            logger.critical(
                "cannot create the data directory", metadata: ["path": "\(configuration.dataDirectory)", "error": "\(error)"])
            throw ExitCode(71)  // EX_OSERR
        }
        // Before the database is touched, and whichever way the socket comes:
        // one todod per data directory, for as long as it runs.
        do {
            _ = try DataDirectoryLock(directory: configuration.dataDirectory)
        } catch {
            logger.critical("\(error)")
            throw ExitCode(DataDirectoryLock.exitCode)
        }
        let opened: OpenedStore
        do {
            opened = try OpenedStore.open(
                settings.store, dataDirectory: configuration.dataDirectory, instance: settings.instance ?? OpenedStore.hostName,
                environment: ProcessInfo.processInfo.environment, createsSharedList: sharing.initStore,
                waiting: { notifier.status($0) }, logger: logger)
        } catch let problem as DatabaseIntegrity.Problem {
            logger.critical("\(problem)")
            throw ExitCode(71)  // EX_OSERR: nothing was served, nothing written
        } catch let problem as StoreLocationError {
            try await Self.refuseToStart("\(problem). Fix it, then run `systemctl --user restart todod`", notifier: notifier, logger: logger) {
                logger.critical("\(problem)")
            }
        } catch let refused as PostgresListStore.ConnectionRefused {
            try await Self.refuseToStart("\(refused). Fix that, then run `systemctl --user restart todod`", notifier: notifier, logger: logger) {
                logger.critical("cannot open the store: \(refused)")
            }
        } catch let missing as PostgresListStore.NoListHere {
            try await Self.refuseToStart(
                "\(missing). Then run `systemctl --user restart todod`", notifier: notifier, logger: logger
            ) {
                logger.critical("\(missing)")
            }
        } catch let forbidden as PostgresListStore.NetworkForbidden {
            // Waiting does not change a sandbox.
            try await Self.refuseToStart("\(forbidden). Then run `systemctl --user restart todod`", notifier: notifier, logger: logger) {
                logger.critical("cannot open the store: \(forbidden)")
            }
        } catch let unavailable as StoreUnavailable {
            logger.critical("cannot open the store: \(unavailable)")
            throw ExitCode(69)  // EX_UNAVAILABLE: systemd tries again (Restart=on-failure)
        } catch {
            logger.critical("cannot open the store", metadata: ["store": "\(settings.store ?? configuration.databasePath)", "error": "\(error)"])
            throw ExitCode(71)  // EX_OSERR: nothing was served, nothing written
        }
        let store = opened.store

        var options = ListOwner.Options()
        options.reminderAge = settings.reminderHours * 3600
        options.desktop = settings.desktop
        options.dueSoonLead = settings.remindBeforeMinutes * 60
        options.fields = settings.fields
        options.historyRevisions = limits.historyRevisions
        let host: ListOwner
        do {
            host = try ListOwner(
                store: store, options: options,
                server: .init(version: DaemonVersion.current, dataFile: opened.location),
                didChange: { status.changed() },
                storeReachabilityChanged: { [location = opened.location] reachable in
                    if reachable {
                        logger.notice("the store answers again; catching up with what other instances committed", metadata: ["store": "\(location)"])
                    } else {
                        logger.warning(
                            "the store does not answer: edits are refused (store.unavailable), reads are served from memory",
                            metadata: ["store": "\(location)"])
                    }
                },
                syncFailed: { error in
                    // The disk did not confirm a write: stop serving rather than
                    // acknowledge what may not be there. systemd restarts todod,
                    // which reloads exactly what is on disk.
                    logger.critical("syncing the database failed; exiting", metadata: ["error": "\(error)"])
                    Foundation.exit(74)  // EX_IOERR
                },
                noticed: { [location = opened.location] message, level in logger.log(level: level, "\(message)", metadata: ["store": "\(location)"]) },
                asideDirectory: configuration.dataDirectory)
        } catch {
            logger.critical("cannot load the store", metadata: ["store": "\(opened.location)", "error": "\(error)"])
            throw ExitCode(error is StoreUnavailable ? 69 : 71)  // nothing was served, nothing written
        }
        host.startWatchingStore()
        if let shared = store as? PostgresListStore,
            let notice = Self.localListNotice(path: configuration.databasePath, shared: shared, storeURL: opened.location)
        {
            host.tell(notice)
        }
        status.countFrom { await host.statusCounts() }
        let server = TodoServer(configuration: configuration, owner: host, notifier: notifier, status: status, logger: logger)
        let reloader = SettingsReloader(
            current: settings, load: loadSettings, path: configPath, host: host, server: server,
            logLevel: logLevel, notifier: notifier, status: status, logger: logger)
        var wedge: (@Sendable () async -> Void)?
        if testHooks {
            wedge = { @Sendable in host.wedgeForTesting() }
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: server),
            .init(service: ControlSignals(reload: { await reloader.reload() }, wedge: wedge)),
        ]
        if let timeout = notifier.watchdogTimeout {
            logger.info("pinging the watchdog", metadata: ["timeout": "\(timeout)"])
            services.append(.init(service: Watchdog(host: host, notifier: notifier, timeout: timeout)))
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        do {
            try await group.run()
        } catch let refused as ListeningSocket.PreparationError {
            logger.critical("\(refused)")
            try? opened.finish()
            throw ExitCode(refused.exitCode)
        } catch {
            logger.critical("todod failed", metadata: ["error": "\(error)"])
            try? opened.finish()
            throw ExitCode.failure
        }

        // Every session has ended, so nothing writes any more: keep what lets
        // clients resume, fold the write-ahead log into the database file and
        // close it. Each step can fail on a full disk; none of them loses an
        // acknowledged edit, each of which is already durable in the log.
        var unsaved: [String] = []
        do {
            // Keep the revision, epoch and recent history so clients resume.
            try await host.persist()
        } catch {
            logger.warning("cannot save the resume record", metadata: ["error": "\(error)"])
            unsaved.append("the resume record (reconnecting clients may have to start afresh)")
        }
        host.shutdown()
        do {
            try opened.finish()
        } catch {
            logger.warning("checkpoint on shutdown failed", metadata: ["error": "\(error)"])
            unsaved.append("the checkpoint (retried at the next start)")
        }
        opened.close()
        if unsaved.isEmpty {
            logger.info("stopped; everything saved")
        } else if store is SharedListStore {
            logger.warning(
                "stopped; every acknowledged edit is committed in \(opened.location), but not saved: \(unsaved.joined(separator: ", "))")
        } else {
            let path = configuration.databasePath
            logger.warning(
                "stopped; every acknowledged edit is on disk (in \(path) or its write-ahead log), but not saved: \(unsaved.joined(separator: ", "))")
        }
    }
}
