import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SystemdSupport
import TodoDaemon
import TodoStorage

/// `todod`: parses flags, opens the store, and runs the server until SIGTERM or SIGINT.
@main
struct Todod: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todod",
        abstract: "The todod to-do daemon: owns the list and serves it on a Unix socket.",
        discussion: """
            Run it in the foreground, or as a systemd user service (see systemd/ and the README).
            Under socket activation it serves the socket systemd passes and ignores --socket.
            Stop it with SIGTERM or Ctrl-C: it finishes requests in progress, tells clients, and
            saves everything before exiting.
            """
    )

    @Option(help: ArgumentHelp("The Unix socket to listen on.", valueName: "path"))
    var socket: String = DaemonConfiguration.standard().socketPath

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("The directory for todos.sqlite.", valueName: "dir"))
    var dataDirectory: String = DaemonConfiguration.standard().dataDirectory

    @Option(help: ArgumentHelp("Remind of an item left undone for this many hours.", valueName: "hours"))
    var reminderHours: Double = 24

    @Option(help: "How much to log: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard reminderHours > 0 else { throw ValidationError("--reminder-hours must be more than 0") }
    }

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "todod")
        let configuration = DaemonConfiguration(socketPath: socket, dataDirectory: dataDirectory)
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

        let host = try ViewModelHost(store: store, reminderAge: reminderHours * 3600, didChange: { itemCount in
            notifier.status(StatusText.serving(itemCount: itemCount))
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
