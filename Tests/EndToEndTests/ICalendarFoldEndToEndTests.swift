import Foundation
import Testing

/// `todoctl import` of an iCalendar file some writer folded inside a
/// character (RFC 5545 §3.1 allows a fold at any octet): todoctl reads the
/// file as bytes, so it unfolds them before it makes them text to send.
@Suite struct ICalendarFoldEndToEndTests {
    /// A calendar of one to-do whose SUMMARY is "Café order" with `é` as written.
    private func calendar(é: [UInt8]) -> Data {
        Data(
            Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:cafe@example.com\r\nSUMMARY:Caf".utf8) + é
                + Array(" order\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8))
    }

    @Test func aFileFoldedInsideACharacterIsImported() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let file = daemon.directory.appendingPathComponent("folded.ics")
        try calendar(é: [0xC3] + Array("\r\n ".utf8) + [0xA9]).write(to: file)

        let dryRun = try await todoctl("import", "--dry-run", file.path, socket: daemon.socket)
        #expect(dryRun.stdout.hasPrefix("to-do 1 (line 3): add 1 “Café order”\n"), "\(dryRun.stdout)\(dryRun.stderr)")
        let imported = try await todoctl("import", file.path, socket: daemon.socket)
        let added = "imported from iCalendar: 1 added, 0 updated, 0 unchanged, 0 skipped\n"
        #expect(imported.stdout == added, "\(imported.stdout)\(imported.stderr)")
        let exported = try await todoctl("export", "--format", "todotxt", socket: daemon.socket).stdout
        #expect(exported.hasSuffix(" Café order\n"), "\(exported)")
    }

    @Test func aFileThatIsNotUTF8EvenUnfoldedIsRefused() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let file = daemon.directory.appendingPathComponent("latin1.ics")
        try calendar(é: [0xE9]).write(to: file)  // é in ISO 8859-1
        let refused = try await todoctl("import", file.path, socket: daemon.socket)
        #expect(refused.status == 65)
        #expect(refused.stderr == "todoctl: \(file.path) is not UTF-8 text; nothing was imported\n", "\(refused.stderr)")
    }
}
