import Foundation
import Synchronization
import Testing
@testable import DesktopNotifications

/// The sd-bus side against a real session `dbus-daemon` started here, with
/// no notification server on it, and against no bus at all: what
/// `todoctl notify` meets before a desktop is up. (A real server, dunst, is
/// in Tests/desktop/run.) Serialized: each test points the process's
/// `DBUS_SESSION_BUS_ADDRESS` somewhere.
@Suite(.serialized) struct NotificationBusTests {
    /// A private session bus in a fresh directory, stopped when done. It
    /// starts no services on demand (the standard session configuration
    /// would start dunst, where installed, for the first Notify).
    final class SessionBus {
        let directory: URL
        let process = Process()
        var address: String { "unix:path=\(directory.path)/bus" }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("todod-bus-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
            let configuration = directory.appendingPathComponent("bus.conf")
            try Self.configuration.write(to: configuration, atomically: true, encoding: .utf8)
            // The socket file appears at bind(), before listen(): a client
            // that raced it got "Connection refused". dbus-daemon prints its
            // address once it accepts connections, so wait for that line.
            let printed = Pipe()
            process.standardOutput = printed
            process.arguments = [
                "--config-file=\(configuration.path)", "--address=\(address)", "--nofork", "--nopidfile",
                "--print-address=1",
            ]
            try process.run()
            var line: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 256)
            let descriptor = printed.fileHandleForReading.fileDescriptor
            while !line.contains(UInt8(ascii: "\n")) {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }  // dbus-daemon ended without listening
                line += buffer[..<count]
            }
            guard line.contains(UInt8(ascii: "\n")) else { throw NoBus() }
        }

        struct NoBus: Error {}

        static let configuration = """
            <busconfig>
              <type>session</type>
              <listen>unix:tmpdir=/tmp</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """

        deinit {
            // SIGKILL: a child of the test process inherits its blocked
            // signals, SIGTERM among them. Only a running one: when `init`
            // throws before `run()` (this deinit still removes the folder),
            // the process id is 0, and kill(0) is the whole process group.
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// dbus-daemon is a test dependency (scripts/bootstrap); under CI a missing one is a failure, not a skip.
    static var hasDBus: Bool {
        let present = FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
        if !present && ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("dbus-daemon is missing; scripts/bootstrap installs it")
        }
        return present
    }

    static let notification = DesktopNotification(
        appName: "todod", summary: "pay rent", body: "overdue (due yesterday) · project home",
        actions: [.init(key: "done", label: "Done")], urgency: .critical)

    @Test(.enabled(if: hasDBus)) func withoutAServerNotifyFailsAsServiceUnknown() throws {
        let bus = try SessionBus()
        setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
        let connection = try NotificationBus()
        #expect(throws: BusError.self) { try connection.serverName() }
        do {
            _ = try connection.notify(Self.notification)
            Issue.record("Notify succeeded with no server on the bus")
        } catch {
            #expect(error.isNoServer, "\(error)")
            #expect(error.description.hasPrefix("calling Notify: org.freedesktop.DBus.Error.ServiceUnknown: "))
        }
    }

    @Test(.enabled(if: hasDBus)) func theNotifierSaysOnceThatThereIsNoServerAndAnswersNil() async throws {
        let bus = try SessionBus()
        setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
        let lines = Mutex<[String]>([])
        let notifier = DesktopNotifier(retryInterval: 0.1) { line in lines.withLock { $0.append(line) } }
        defer { notifier.stop() }
        #expect(await notifier.show(Self.notification) == nil)
        #expect(await notifier.show(Self.notification) == nil)
        let said = lines.withLock { $0 }
        // Said on connecting, and not again for either attempt to show.
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.hasPrefix("no notification server on the session bus yet") == true)
    }

    @Test func withoutABusTheNotifierSaysSoOnceAndAnswersNil() async throws {
        setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/todod-test/bus", 1)
        let lines = Mutex<[String]>([])
        let notifier = DesktopNotifier(retryInterval: 0.05) { line in lines.withLock { $0.append(line) } }
        defer { notifier.stop() }
        #expect(await notifier.show(Self.notification) == nil)
        // Several attempts to connect, each of which would say it again.
        let tried = notifier.connectionAttempts
        let deadline = ContinuousClock.now + .seconds(30)
        while notifier.connectionAttempts < tried + 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(notifier.connectionAttempts >= tried + 3)
        #expect(await notifier.show(Self.notification) == nil)
        let said = lines.withLock { $0 }
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.hasPrefix("no session bus (connecting to the session bus: ") == true)
    }
}
