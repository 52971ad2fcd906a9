import Foundation
import Testing

/// Fields declared in todod.conf, through the real daemon and todoctl: set
/// by shorthand, listed, shown, and re-read on SIGHUP with the values of a
/// removed declaration kept.
@Suite struct DeclaredFieldsEndToEndTests {
    @Test func declaredFieldsAreSetListedAndSurviveTheirDeclarationsRemoval() async throws {
        let daemon = try DaemonProcess()
        let configuration = daemon.directory.appendingPathComponent("todod.conf").path
        try "field.estimate = numeric \"Estimate\"\nfield.size = string \"Size\" S,M,L\n"
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        daemon.arguments = ["--config", configuration]
        try await daemon.start()
        let socket = daemon.socket

        let added = try await todoctl("add", "plan", "trip", "estimate:3", "size:m", "until:2999-12-24", socket: socket)
        #expect(added.stdout == "1  [ ] plan trip  until 2999-12-24 · Estimate: 3 · Size: M\n", "\(added.stderr)")
        let refused = try await todoctl("add", "plan", "estmate:3", socket: socket)
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("there is no field \"estmate\""), "\(refused.stderr)")
        let outside = try await todoctl("modify", "1", "size:XL", socket: socket)
        #expect(outside.stderr.contains("\"XL\" is not one of S, M, L for size"), "\(outside.stderr)")

        // A quoted value with spaces stays one value for a declared field, as for due:.
        let spaced = try await todoctl("add", "pack", "until:2999-12-24 18:00", socket: socket)
        #expect(spaced.stdout == "2  [ ] pack  until 2999-12-24 at 18:00\n", "\(spaced)")
        #expect(try await todoctl("rm", "2", socket: socket).status == 0)
        // A link to a missing item is named with its word and place.
        let missing = try await todoctl("modify", "1", "depends:99", socket: socket)
        #expect(missing.stderr.contains("At 0 (depends:99): depends: there is no item 99"), "\(missing.stderr)")

        let json = try await todoctl("ls", "--json", socket: socket)
        #expect(json.stdout.contains("\"values\":{\"estimate\":3,\"size\":\"M\",\"until\":\"2999-12-24\"}"), "\(json.stdout)")

        // The size declaration goes; its value stays, shown raw.
        try "field.estimate = numeric \"Hours\"\n".write(toFile: configuration, atomically: true, encoding: .utf8)
        kill(try #require(daemon.pid), SIGHUP)
        #expect(await daemon.log.wait(timeout: .seconds(20)) { $0.contains("reload: configuration applied") }, "\(daemon.log.text)")
        #expect(daemon.log.text.contains("field.size (removed; its values are kept)"), "\(daemon.log.text)")
        let shown = try await todoctl("show", "1", socket: socket)
        #expect(shown.stdout.contains("Hours       3\n"), "\(shown.stdout)")
        #expect(shown.stdout.contains("size (not declared) M\n"), "\(shown.stdout)")
        #expect(try await todoctl("add", "other", "size:M", socket: socket).status == 65)

        // And a restart keeps every value.
        #expect(try await daemon.terminate() == 0)
        try await daemon.start()
        #expect(try await todoctl("ls", socket: daemon.socket).stdout.contains("until 2999-12-24 · Hours: 3 · size: M"))
    }
}
