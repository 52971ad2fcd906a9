import ArgumentParser
import CalDAV
import Foundation
import Logging
import TodoSyncService

extension TododSync {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Syncs the list with a CalDAV collection: checks it takes to-dos, stores the password for you only, syncs.",
            discussion: """
                One collection per todod: while one is set up, add refuses and says which. \
                --replace switches to another collection, starting from no agreed versions (it deletes nothing on either side). \
                A todod at another socket (--socket) has a sync of its own: its own settings, password, state \
                and service (todod-sync@….service).
                """)
        @OptionGroup var locations: Locations
        @Argument(help: "The collection's URL (https://dav.example.com/calendars/me/todo/).") var url: String
        @Option(help: "The user name on the server (default: your login name).") var user: String?
        @Option(help: "Read the password from this file's first line instead of asking on the terminal.") var passwordFile: String?
        @Option(help: "A PEM file of the CA that signed the server's certificate, trusted besides the system's (a self-signed server).")
        var caFile: String?
        @Option(help: "Seconds between looks at the server (5–86400).") var interval: Int = SyncSettings.defaultInterval
        @Flag(help: "Replace the collection this list syncs with now (nothing is deleted on either side).") var replace = false
        @Flag(help: "Do not enable and start the sync's service.") var noStart = false

        func validate() throws {
            guard (5...86_400).contains(interval) else { throw ValidationError("--interval must be 5 to 86400 seconds") }
        }

        func run() async throws {
            let paths = locations.paths
            // Settings that cannot be read are not "none": only --replace writes over them.
            let current: SyncSettings?
            do {
                current = try paths.settings()
            } catch where replace {
                current = nil
            } catch {
                throw SyncCommandFailure("\(error) (\(TododSync.spokenName) add … --replace writes new ones)", code: SyncCommandFailure.configuration)
            }
            if let current, !replace {
                throw SyncCommandFailure(
                    """
                    this list already syncs with \(current.collectionURL) (user \(current.user)); nothing was changed.
                      To switch to \(url): \(TododSync.spokenName) add \(url) --replace (starts from no agreed versions; deletes nothing)
                      To stop syncing first: \(TododSync.spokenName) rm
                      For another list, run a second todod with its own --socket and --data-dir, and add its sync with --socket
                    """, code: SyncCommandFailure.refused)
            }
            let user = self.user ?? ProcessInfo.processInfo.environment["USER"] ?? NSUserName()
            let password = try PasswordSource(file: passwordFile).read(prompt: "Password for \(user) at \(url): ")
            let caFile = self.caFile.map { ($0 as NSString).standardizingPath }.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
            let account: CalDAVAccount
            do {
                account = try CalDAVAccount(collectionURL: url, user: user, password: password, caFile: caFile)
            } catch {
                throw SyncCommandFailure(error.description, code: SyncCommandFailure.usage)  // what was typed
            }
            let info = try await Self.check(account)
            print("\(info.displayName.map { "“\($0)” at " } ?? "")\(account.collectionURL.absoluteString) takes to-dos"
                + (info.supportsSyncCollection ? "" : " (no sync-collection: changes are found by comparing ETags)"))
            let settings = SyncSettings(collectionURL: account.collectionURL.absoluteString, user: user, caFile: caFile, interval: interval)
            // The service runs with the settings it read: it stops, and is
            // gone, before they change; `enable --now` below starts it with
            // the new ones. A switch to another collection starts from no
            // base: the first round finds the collection is not the one the
            // base was agreed with, and forgets it.
            if current != nil { _ = ServiceControl.systemctl(["stop", paths.instance.serviceName]) }
            try await Self.stopHolder(of: paths)
            if let current, current.collectionURL != settings.collectionURL {
                print("no longer syncing with \(current.collectionURL)")
            }
            do {
                try paths.save(settings, password: password)
            } catch {
                throw SyncCommandFailure(error.description, code: SyncCommandFailure.storage)
            }
            print("settings in \(paths.settingsFile), the password in \(paths.passwordFile) (readable by you only)")
            var firstSyncFailure: SyncCommandFailure?
            do {
                try await Now.syncNow(locations)
                let status = try await Status.current(locations)
                print("first sync done: \(status.synced) \(status.synced == 1 ? "to-do" : "to-dos") in step"
                    + (status.conflicts.isEmpty ? "" : ", \(status.conflicts.count) conflicts kept as notes"))
            } catch {
                firstSyncFailure = SyncCommandFailure(error)
            }
            // Started even when the first sync failed: the service tries again.
            if !noStart { startService(paths) }
            if let firstSyncFailure {
                throw SyncCommandFailure(
                    "the collection is set up, but the first sync failed: \(firstSyncFailure.description)"
                        + (noStart ? "\n  Try again with: \(TododSync.spokenName) now" : "\n  The service tries again; \(TododSync.spokenName) status tells how it goes"),
                    code: firstSyncFailure.code)
            }
        }

        private func startService(_ paths: SyncPaths) {
            let service = paths.instance.serviceName
            if paths.instance.name != nil, ["/tmp/", "/var/tmp/"].contains(where: paths.socketPath.hasPrefix) {
                print("note: \(service) has a /tmp of its own and cannot reach a socket under /tmp; run that todod with --socket under $XDG_RUNTIME_DIR")
            }
            if ServiceControl.systemctl(["enable", "--now", service]) {
                print("\(service) enabled and started: the list stays in step from now on")
            } else {
                print("could not start \(service); start it with: systemctl --user enable --now \(service)")
            }
        }

        /// Stops a sync that runs with the old settings outside systemd (a
        /// `todod-sync run` by hand, a `sync now`), and waits until it is gone.
        static func stopHolder(of paths: SyncPaths) async throws {
            guard let pid = SyncLock.holder(in: paths.stateDirectory) else { return }
            kill(pid, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(30)
            while SyncLock.holder(in: paths.stateDirectory) != nil {
                guard ContinuousClock.now < deadline else {
                    throw SyncCommandFailure(
                        "todod-sync (pid \(pid)) still runs with the old settings 30 s after it was asked to stop; nothing was changed",
                        code: SyncCommandFailure.unreachable)
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        /// Whether the account's collection takes to-dos, said as a failure
        /// the person can act on when it does not.
        static func check(_ account: CalDAVAccount) async throws -> CollectionInfo {
            let client = try CalDAVClient(account: account)
            do {
                let info = try await client.probe()
                try info.requireTaskCalendar()
                try? await client.shutdown()
                return info
            } catch {
                try? await client.shutdown()
                throw SyncCommandFailure(error)
            }
        }
    }
}

/// Where a password comes from: a file's first line, else the terminal.
struct PasswordSource {
    var file: String?

    /// From `file`, else asked on the terminal without echo.
    func read(prompt: String) throws -> String {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw SyncCommandFailure("cannot read \(file)", code: SyncCommandFailure.usage)
            }
            let password = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !password.isEmpty else { throw SyncCommandFailure("\(file) holds no password on its first line", code: SyncCommandFailure.usage) }
            return password
        }
        guard let password = Terminal.askSecretly(prompt), !password.isEmpty else {
            throw SyncCommandFailure("no password given (no terminal to ask on? use --password-file FILE)", code: SyncCommandFailure.usage)
        }
        return password
    }
}

/// `systemctl --user`, for enabling the service; false when it failed or is not there.
enum ServiceControl {
    static func systemctl(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["systemctl", "--user"] + arguments
        // From /: the directory this was started in may be one systemctl
        // cannot enter (Foundation changes into it first, and fails).
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// The terminal, for a password.
enum Terminal {
    /// Asks on /dev/tty with echo off; nil when there is no terminal.
    static func askSecretly(_ prompt: String) -> String? {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(tty, TCSAFLUSH, &quiet)
        defer {
            _ = tcsetattr(tty, TCSAFLUSH, &saved)
            _ = write(tty, "\n", 1)
        }
        _ = write(tty, prompt, prompt.utf8.count)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(tty, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
