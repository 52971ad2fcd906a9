import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SystemdSupport
import TodoDaemon
import TodoProtocol
import TodoStorage

/// `todod`: parses flags, opens the store, and runs the server until SIGTERM or SIGINT.
@main
struct Todod: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todod",
        abstract: "The todod to-do daemon: owns the list and serves it on a Unix socket.",
        discussion: """
            Run it in the foreground, or as a systemd user service (see systemd/ and the README). \
            Under socket activation it serves the socket systemd passes and ignores --socket.

            Stop it with SIGTERM or Ctrl-C: it finishes requests in progress, tells clients, and \
            saves everything before exiting.
            """,
        version: ReleaseVersion.number
    )

    @Option(help: ArgumentHelp("The Unix socket to listen on.", valueName: "path"))
    var socket: String = DaemonConfiguration.standard().socketPath

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("The directory for todos.sqlite.", valueName: "dir"))
    var dataDirectory: String = DaemonConfiguration.standard().dataDirectory

    @Option(help: ArgumentHelp("Remind of an item left undone for this many hours.", valueName: "hours"))
    var reminderHours: Double = 24

    @Option(help: "How much to log: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @OptionGroup(title: "Limits") var limits: Limits

    @Flag(help: .hidden) var printSchema = false

    struct Limits: ParsableArguments {
        @Option(help: ArgumentHelp("Close a connection whose request line is unfinished after this long.", valueName: "seconds"))
        var lineTimeout: Double = 30
        @Option(help: ArgumentHelp("Coalesce a client's events once this many bytes wait for it.", valueName: "bytes"))
        var outboxSoftLimit: Int = 1 << 20
        @Option(help: ArgumentHelp("Disconnect a client once this many bytes wait for it.", valueName: "bytes"))
        var outboxHardLimit: Int = 8 << 20
        @Option(help: ArgumentHelp("Disconnect a client that has read nothing for this long while data waits.", valueName: "seconds"))
        var stallTimeout: Double = 30
        @Option(help: ArgumentHelp("Serve at most this many connections at once.", valueName: "count"))
        var maxConnections: Int = 256
        @Option(help: ArgumentHelp("Keep this many transactions for clients that resume.", valueName: "count"))
        var historyRevisions: Int = 1000
    }

    func validate() throws {
        guard reminderHours > 0 else { throw ValidationError("--reminder-hours must be more than 0") }
        guard limits.lineTimeout > 0, limits.stallTimeout > 0 else {
            throw ValidationError("--line-timeout and --stall-timeout must be more than 0")
        }
        guard limits.outboxSoftLimit > 0, limits.outboxHardLimit >= limits.outboxSoftLimit else {
            throw ValidationError("--outbox-hard-limit must be at least --outbox-soft-limit, and both more than 0")
        }
        guard limits.maxConnections > 0, limits.historyRevisions >= 0 else {
            throw ValidationError("--max-connections must be more than 0 and --history-revisions at least 0")
        }
    }

    func run() async throws {
        if printSchema {
            // Protocol/schema/todod.schema.json is this output.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(ProtocolDescription.document) + Data("\n".utf8))
            return
        }
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "todod")
        var configuration = DaemonConfiguration(socketPath: socket, dataDirectory: dataDirectory)
        configuration.lineTimeout = limits.lineTimeout
        configuration.outboxSoftLimit = limits.outboxSoftLimit
        configuration.outboxHardLimit = limits.outboxHardLimit
        configuration.stallTimeout = limits.stallTimeout
        configuration.maximumConnections = limits.maxConnections
        let notifier = ServiceNotifier()

        let store: SQLiteTodoStore
        do {
            try FileManager.default.createDirectory(
                atPath: configuration.dataDirectory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
            store = try SQLiteTodoStore(path: configuration.databasePath)
        } catch {
            logger.critical("cannot open the store", metadata: ["path": "\(configuration.databasePath)", "error": "\(error)"])
            throw ExitCode(71)  // EX_OSERR: nothing was served, nothing written
        }

        var options = ViewModelHost.Options()
        options.reminderAge = reminderHours * 3600
        options.historyRevisions = limits.historyRevisions
        let host = try ViewModelHost(
            store: store, options: options,
            didChange: { itemCount in notifier.status(StatusText.serving(itemCount: itemCount)) },
            syncFailed: { error in
                // The disk did not confirm a write: stop serving rather than
                // acknowledge what may not be there. systemd restarts todod,
                // which reloads exactly what is on disk.
                logger.critical("syncing the database failed; exiting", metadata: ["error": "\(error)"])
                Foundation.exit(74)  // EX_IOERR
            })
        let server = TodoServer(configuration: configuration, host: host, notifier: notifier, logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: server)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        do {
            try await group.run()
        } catch {
            logger.critical("todod failed", metadata: ["error": "\(error)"])
            try? store.checkpoint()
            throw ExitCode.failure
        }

        // Every session has ended, so nothing writes any more: fold the
        // write-ahead log into the database file and close it.
        do {
            // Keep the revision, epoch and recent history so clients resume.
            try await host.persist()
            try store.checkpoint()
            try store.close()
        } catch {
            // Every change was already committed durably; only the tidy-up failed.
            logger.warning("checkpoint on shutdown failed", metadata: ["error": "\(error)"])
        }
        logger.info("stopped; everything saved")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
