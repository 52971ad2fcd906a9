import Logging
import Testing
@testable import TodoDaemon

/// The configuration file: what it sets, and how it says what is wrong.
@Suite struct DaemonSettingsTests {
    @Test func aFileSetsWhatItNamesAndLeavesTheRest() throws {
        let text = """
            # todod.conf
            reminder-hours = 2.5
            log-level=debug   # while investigating

            max-connections = 12
            """
        let settings = try DaemonSettings().applying(fileText: text, path: "todod.conf")
        #expect(settings.reminderHours == 2.5)
        #expect(settings.logLevel == .debug)
        #expect(settings.maxConnections == 12)
        #expect(settings.lineTimeout == DaemonSettings().lineTimeout)
        #expect(settings.applied(to: DaemonConfiguration(socketPath: "s", dataDirectory: "d")).maximumConnections == 12)
    }

    @Test(arguments: [
        ("reminder-hour = 3", "todod.conf line 1: unknown setting 'reminder-hour' (known: reminder-hours,"),
        ("\n\nreminder-hours = soon", "todod.conf line 3: reminder-hours must be a number of hours more than 0, not 'soon'"),
        ("reminder-hours = -1", "todod.conf line 1: reminder-hours must be a number of hours more than 0, not '-1'"),
        ("log-level = loud", "todod.conf line 1: log-level must be one of trace, debug, info, notice, warning, error, critical, not 'loud'"),
        ("max-connections", "todod.conf line 1: expected 'key = value', got 'max-connections'"),
        ("outbox-soft-limit = 2000\noutbox-hard-limit = 1000", "todod.conf: outbox-hard-limit (1000) must be at least outbox-soft-limit (2000)"),
    ])
    func aBadFileSaysWhereAndWhat(text: String, message: String) {
        #expect {
            _ = try DaemonSettings().applying(fileText: text, path: "todod.conf")
        } throws: { error in
            (error as? DaemonSettings.Invalid)?.description.hasPrefix(message) == true
        }
    }

    @Test func optionsWinOverTheFileAndAMissingFileIsNoError() throws {
        let settings = try DaemonSettings.load(
            file: "/nonexistent/todod.conf", mustExist: false, overrides: [(.reminderHours, "1")])
        #expect(settings.reminderHours == 1)
        #expect(throws: DaemonSettings.Invalid.self) {
            try DaemonSettings.load(file: "/nonexistent/todod.conf", mustExist: true, overrides: [])
        }
    }

    @Test func theStatusLineCountsItemsClientsAndSubscriptions() {
        #expect(StatusReporter.text(items: 1, clients: 0, subscriptions: 2) == "1 item, 0 clients, 2 subscriptions")
        #expect(StatusReporter.text(items: 42, clients: 1, subscriptions: 1) == "42 items, 1 client, 1 subscription")
        #expect(
            StatusReporter.text(items: 3, clients: 2, subscriptions: 1, notices: 1)
                == "3 items, 2 clients, 1 subscription; 1 notice to read: todoctl status")
    }
}
