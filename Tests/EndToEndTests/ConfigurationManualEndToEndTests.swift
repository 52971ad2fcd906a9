import Foundation
import Testing

/// todod.conf(5) is written from the settings todod reads: every setting
/// `todod --help` offers is in it, with the default the help gives.
@Suite struct ConfigurationManualEndToEndTests {
    @Test func everySettingIsInThePageWithItsDefault() async throws {
        let page = try await output(
            of: Binaries.todod, ["--print-configuration-manual"], environment: ["SOURCE_DATE_EPOCH": "1795392000"])
        #expect(page.hasPrefix(".Dd November 23, 2026\n.Dt TODOD.CONF 5\n"), "\(page.prefix(80))")
        let help = try await output(of: Binaries.todod, ["--help"])
        // "--reminder-hours <hours>  Remind of … (default: 24)." in the help;
        // the settings are the options with a default, other than history-revisions.
        let settings = ["reminder-hours", "log-level", "line-timeout", "outbox-soft-limit", "outbox-hard-limit",
                        "stall-timeout", "max-connections"]
        let flattened = help.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        for setting in settings {
            let option = try #require(flattened.range(of: "--\(setting) <"), "no --\(setting) in todod --help")
            let rest = flattened[option.upperBound...]
            let valueName = String(rest.prefix { $0 != ">" })
            let defaultStart = try #require(rest.range(of: "(default: "))
            let defaultText = String(rest[defaultStart.upperBound...].prefix { $0 != ")" })
            #expect(page.contains(".It Cm \(setting) No = Ar \(valueName)\n"), "no \(setting) in the page")
            #expect(page.contains(".It Cm \(setting) No = Ar \(valueName)\n") && page.contains(".Ql \(defaultText) ."),
                    "\(setting)'s default \(defaultText) not in the page")
        }
    }
}
