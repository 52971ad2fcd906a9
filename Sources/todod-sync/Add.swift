import ArgumentParser
import CalDAV
import Foundation
import Logging
import TodoSyncService

extension TododSync {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Syncs the list with a CalDAV collection: checks it takes to-dos, stores the password for you only, syncs.")
        @OptionGroup var locations: Locations
        @Argument(help: "The collection's URL (https://dav.example.com/calendars/me/todo/).") var url: String
        @Option(help: "The user name on the server (default: your login name).") var user: String?
        @Option(help: "Read the password from this file's first line instead of asking on the terminal.") var passwordFile: String?
        @Option(help: "A PEM file of the CA that signed the server's certificate, trusted besides the system's (a self-signed server).")
        var caFile: String?
        @Option(help: "Seconds between looks at the server (5–86400).") var interval: Int = SyncSettings.defaultInterval
        @Flag(help: "Do not enable and start todod-sync.service.") var noStart = false

        func validate() throws {
            guard (5...86_400).contains(interval) else { throw ValidationError("--interval must be 5 to 86400 seconds") }
        }

        func run() async throws {
            let paths = locations.paths
            let user = self.user ?? ProcessInfo.processInfo.environment["USER"] ?? NSUserName()
            let password = try readPassword(user: user)
            let caFile = self.caFile.map { ($0 as NSString).standardizingPath }.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
            let account = try CalDAVAccount(collectionURL: url, user: user, password: password, caFile: caFile)
            let client = try CalDAVClient(account: account)
            do {
                let info = try await client.probe()
                try info.requireTaskCalendar()
                try? await client.shutdown()
                print("todod-sync: \(info.displayName.map { "“\($0)” at " } ?? "")\(account.collectionURL.absoluteString) takes to-dos"
                    + (info.supportsSyncCollection ? "" : " (no sync-collection: changes are found by comparing ETags)"))
            } catch {
                try? await client.shutdown()
                throw ValidationError("\(error)")
            }
            let settings = SyncSettings(collectionURL: account.collectionURL.absoluteString, user: user, caFile: caFile, interval: interval)
            if let pid = SyncLock.holder(in: paths.stateDirectory) { kill(pid, SIGTERM) }  // it runs with the old settings
            try paths.save(settings, password: password)
            print("todod-sync: settings in \(paths.settingsFile), the password in \(paths.passwordFile) (mode 600)")
            try await Now.syncNow(locations)
            let status = try await Status.current(locations)
            print("todod-sync: first sync done: \(status.synced) to-dos in step" + (status.conflicts.isEmpty ? "" : ", \(status.conflicts.count) conflicts kept as notes"))
            guard !noStart else { return }
            if ServiceControl.systemctl(["enable", "--now", "todod-sync.service"]) {
                print("todod-sync: todod-sync.service enabled and started: the list stays in step from now on")
            } else {
                print("todod-sync: could not start todod-sync.service; start it with: systemctl --user enable --now todod-sync.service")
            }
        }

        /// From `--password-file`, else asked on the terminal without echo.
        private func readPassword(user: String) throws -> String {
            if let passwordFile {
                guard let data = FileManager.default.contents(atPath: passwordFile) else { throw ValidationError("cannot read \(passwordFile)") }
                let password = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
                guard !password.isEmpty else { throw ValidationError("\(passwordFile) holds no password on its first line") }
                return password
            }
            guard let password = Terminal.askSecretly("Password for \(user) at \(url): "), !password.isEmpty else {
                throw ValidationError("no password given (no terminal to ask on? use --password-file FILE)")
            }
            return password
        }
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
