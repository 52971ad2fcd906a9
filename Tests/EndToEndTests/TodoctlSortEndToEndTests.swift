import Foundation
import Testing

/// A sort as people type it: `urgency-` as todod writes it, and `-urgency`
/// as other tools do, in every place todoctl takes a sort.
@Suite struct TodoctlSortEndToEndTests {
    @Test func aKeyIsReversedWithAMinusBeforeOrAfterIt() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        for title in ["pears", "apples", "figs"] { _ = try await todoctl("add", title, socket: socket) }

        let suffixed = try await todoctl("ls", "--sort", "title-", socket: socket)
        #expect(suffixed.stdout.hasPrefix("own listing · filter all · sort title-\n1  [ ] pears\n3  [ ] figs\n2  [ ] apples\n"), "\(suffixed)")
        for words in [["ls", "--sort", "-title"], ["ls", "--sort=-title"], ["ls", "--sort", " - title"]] {
            let prefixed = try await todoctl(arguments: words, socket: socket)
            #expect(prefixed.status == 0 && prefixed.stdout == suffixed.stdout, "todoctl \(words): \(prefixed)")
        }
        let mixed = try await todoctl("ls", "--sort", "-title,created", socket: socket)
        #expect(mixed.stdout.hasPrefix("own listing · filter all · sort title-,created\n"), "\(mixed)")

        let shared = try await todoctl("sort", "-title", socket: socket)
        #expect(shared.status == 0 && shared.stdout.hasPrefix("view main · filter all · sort title-\n1  [ ] pears\n"), "\(shared)")
        let saved = try await todoctl("view", "save", "fruit", "--sort", "-created", socket: socket)
        #expect(saved.status == 0 && saved.stdout.contains("sort created-"), "\(saved)")

        let bad = try await todoctl("sort", "-colour!", socket: socket)
        #expect(bad.status == 64 && bad.stderr.contains("colour!") && bad.stderr.contains("is not a sort key"), "\(bad)")
        // A name of letters may be a field todod.conf declares: todod says whether it is.
        let undeclared = try await todoctl("sort", "-colour", socket: socket)
        #expect(
            undeclared.status == 65 && undeclared.stderr.contains("\"colour\" is not a sort key")
                && undeclared.stderr.contains("a declared field's name (scheduled, until, depends, parent)"), "\(undeclared)")
    }
}
