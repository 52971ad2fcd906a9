import Testing
import TodoViewModels
@testable import TodoDaemon

/// The desktop reminders' settings in todod.conf: what they set, their
/// defaults, and what a mistake in them says.
@Suite struct DesktopSettingsTests {
    @Test func theDefaultsShowRemindersFifteenMinutesAheadWithoutQuietHours() {
        let settings = DaemonSettings()
        #expect(settings.desktop == DesktopReminderSettings(enabled: true, quietHours: nil))
        #expect(settings.remindBeforeMinutes == 15)
        #expect(DaemonSettings.Name.quietHours.help == "Hold desktop reminders back between these times, such as 22:00-07:00, or none (default: none).")
    }

    @Test func aFileSetsThemAndAReadingOfTheValuesGivesThemBack() throws {
        let text = """
            notifications = off
            quiet-hours = 22:30-07:00
            remind-before = 30
            """
        let settings = try DaemonSettings().applying(fileText: text, path: "todod.conf")
        #expect(settings.desktop == DesktopReminderSettings(enabled: false, quietHours: QuietHours(text: "22:30-07:00")))
        #expect(settings.remindBeforeMinutes == 30)
        #expect(settings.value(of: .quietHours) == "22:30-07:00")
        #expect(settings.value(of: .notifications) == "off")
        let back = try settings.applying(fileText: "quiet-hours = none\nnotifications = on", path: "todod.conf")
        #expect(back.desktop == DesktopReminderSettings())
    }

    @Test(arguments: [
        ("notifications = maybe", "todod.conf line 1: notifications must be on or off, not 'maybe'"),
        ("quiet-hours = 22-7", "todod.conf line 1: quiet-hours must be two times such as 22:00-07:00, or none, not '22-7'"),
        ("remind-before = -5", "todod.conf line 1: remind-before must be a number of minutes from 0 to 10080, not '-5'"),
    ])
    func aMistakeSaysWhereAndWhat(text: String, message: String) {
        #expect {
            _ = try DaemonSettings().applying(fileText: text, path: "todod.conf")
        } throws: { error in
            (error as? DaemonSettings.Invalid)?.description == message
        }
    }
}
