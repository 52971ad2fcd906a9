import ArgumentParser
import CalDAV
import Foundation
import Logging
import SystemdSupport
import TodoProtocol
import TodoSync
import TodoSyncService
import UnixSignals

/// `todod-sync`: the list synced with a CalDAV collection (Nextcloud,
/// Fastmail, iCloud, Radicale…), two ways, as a companion of todod: todod
/// keeps its sandbox without network, and this service talks to the server
/// and to todod's socket. `todoctl sync …` runs these commands.
@main
struct TododSync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todod-sync",
        abstract: "Syncs todod's list with a CalDAV collection, both ways.",
        discussion: """
            Set up with `todoctl sync add URL --user NAME`, then the user service \
            todod-sync.service keeps the list and the collection in step.
            """,
        subcommands: [Run.self, Add.self, Status.self, Now.self, Password.self, Remove.self],
        defaultSubcommand: Run.self)
}

/// Options every command takes.
struct Locations: ParsableArguments {
    @Option(name: .customLong("socket"), help: "todod's socket (default: $TODOD_SOCKET or todod's own).")
    var socket: String?

    var paths: SyncPaths { SyncPaths.standard(socketPath: socket ?? SocketLocation.defaultPath()) }

    func settings() throws -> SyncSettings {
        let settings: SyncSettings?
        do {
            settings = try paths.settings()
        } catch {
            throw SyncCommandFailure(error)
        }
        guard let settings else {
            throw SyncCommandFailure(
                "no sync is set up for the todod at \(paths.socketPath): \(TododSync.spokenName) add URL --user NAME",
                code: SyncCommandFailure.configuration)
        }
        return settings
    }
}

extension TododSync {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Runs the sync (what todod-sync.service starts).")
        @OptionGroup var locations: Locations

        func run() async throws {
            Self.bootstrapLogging()
            let logger = Logger(label: "todod-sync")
            let paths = locations.paths
            let settings = try locations.settings()
            guard let lock = try SyncLock(directory: paths.stateDirectory) else {
                throw SyncCommandFailure(
                    "another todod-sync is running for this todod (pid \(SyncLock.holder(in: paths.stateDirectory).map(String.init) ?? "?"))",
                    code: SyncCommandFailure.refused)
            }
            let service = try SyncService(paths: paths, settings: settings, password: try paths.password(), logger: logger)
            let triggers = SyncTriggers()
            let signals = await UnixSignalsSequence(trapping: .sigusr1, .sigterm, .sigint)
            let syncing = Task { await service.run(triggers: triggers) }
            for await signal in signals {
                if signal == .sigusr1 {
                    triggers.request(.poll)
                    continue
                }
                // Every round commits as it goes: stopping between two
                // writes loses nothing, and the next start finds the rest.
                logger.notice("stopping")
                ServiceNotifier().stopping(status: "stopping")
                syncing.cancel()
                break
            }
            await service.close()
            withExtendedLifetime(lock) {}
        }

        static func bootstrapLogging() {
            CompanionLogging.bootstrap(identifier: "todod-sync", fieldPrefix: "TODOD_SYNC_")
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Shows the last sync, pending changes, conflicts and errors.")
        @OptionGroup var locations: Locations
        @Flag(help: "As JSON.") var json = false

        func run() async throws {
            let status = try await Self.current(locations)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(status), as: UTF8.self))
            } else {
                print(status.text)
            }
        }

        static func current(_ locations: Locations) async throws -> SyncStatus {
            let paths = locations.paths
            let settings = try locations.settings()
            let running = SyncLock.holder(in: paths.stateDirectory) != nil
            return try await SyncService.status(paths: paths, settings: settings, running: running)
        }
    }

    struct Now: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Syncs now, and shows how it went.")
        @OptionGroup var locations: Locations
        @Flag(
            help: ArgumentHelp(
                "Let this sync delete more than a sync deletes unasked (open to-dos numbering over \(Int(DeletionBound.share * 100)) % of those synced, and at least \(DeletionBound.minimum); completed ones do not count).",
                discussion: "A sync that would delete that much stops, deletes nothing and asks: a list or a collection emptied by accident looks like one a person emptied."
            ))
        var allowDeletions = false

        func run() async throws {
            if allowDeletions {
                do {
                    _ = try locations.settings()  // a sync is set up
                    try SyncService.allowDeletionsOnce(paths: locations.paths)
                } catch {
                    throw SyncCommandFailure(error)
                }
            }
            let before = (try? await Status.current(locations))?.lastAttempt
            do {
                try await Self.syncNow(locations)
            } catch {
                // A round that failed here said why in the status (below);
                // anything else failed before a round began: said as it is.
                guard let status = try? await Status.current(locations), status.lastAttempt != before, status.error != nil else {
                    throw SyncCommandFailure(error)
                }
            }
            let status = try await Status.current(locations)
            print(status.text)
            if let error = status.error {
                throw SyncCommandFailure("the sync failed: \(error)", kind: status.errorKind ?? .failed)
            }
        }

        /// Asks the running service (SIGUSR1) and waits for its round, or syncs here.
        static func syncNow(_ locations: Locations) async throws {
            let paths = locations.paths
            let settings = try locations.settings()
            if let pid = SyncLock.holder(in: paths.stateDirectory) {
                let before = try await SyncService.status(paths: paths, settings: settings, running: true).lastAttempt
                guard kill(pid, SIGUSR1) == 0 else {
                    throw SyncCommandFailure("cannot signal todod-sync (pid \(pid))", code: SyncCommandFailure.unreachable)
                }
                // Until its round started and ended (generous: a first sync of a big collection).
                let deadline = ContinuousClock.now + .seconds(300)
                while ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                    let status = try await SyncService.status(paths: paths, settings: settings, running: true)
                    if status.lastAttempt != before, status.roundFinished { return }
                }
                throw SyncCommandFailure(
                    "\(paths.instance.serviceName) did not finish a sync within 300 s; see journalctl --user -u \(paths.instance.serviceName)",
                    code: SyncCommandFailure.unreachable)
            }
            guard let lock = try SyncLock(directory: paths.stateDirectory) else { return try await syncNow(locations) }
            CompanionLogging.bootstrapToJournal(identifier: "todod-sync", fieldPrefix: "TODOD_SYNC_")
            let service = try SyncService(paths: paths, settings: settings, password: try paths.password(), logger: Logger(label: "todod-sync"))
            do {
                try await service.syncOnce()
            } catch {
                await service.close()
                throw error
            }
            await service.close()
            withExtendedLifetime(lock) {}
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Stops syncing: forgets the collection, the password and what was agreed; deletes nothing in the list or on the server.")
        @OptionGroup var locations: Locations

        func run() async throws {
            let paths = locations.paths
            let settings = try? paths.settings()
            _ = ServiceControl.systemctl(["disable", "--now", paths.instance.serviceName])
            if let pid = SyncLock.holder(in: paths.stateDirectory) { kill(pid, SIGTERM) }
            paths.remove()
            if let settings {
                print("no longer syncing with \(settings.collectionURL); the list and the collection are as they were")
            } else {
                print("no sync was set up for the todod at \(paths.socketPath); nothing changed")
            }
        }
    }
}
