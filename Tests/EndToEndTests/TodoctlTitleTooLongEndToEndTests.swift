import Foundation
import Testing

/// A title so long that its request would not fit in one of todod's lines
/// (`maxLineBytes` in the greeting, 1 MiB) is refused by todoctl before it
/// sends anything: exit 65 and "title too long" instead of a protocol error,
/// nothing added, and todod none the wiser (it logs an over-long line when it
/// gets one, so its log shows whether anything was sent).
@Suite struct TodoctlTitleTooLongEndToEndTests {
    /// One argument may hold at most 128 KiB (Linux's MAX_ARG_STRLEN), so a
    /// long title is given as words of 100,000 letters, which todoctl joins
    /// with spaces, as it does any title.
    static func words(makingATitleOf bytes: Int) -> [String] {
        let word = 100_000
        var words: [String] = []
        var remaining = bytes
        while remaining > 0 {
            let length = min(word, remaining)
            words.append(String(repeating: "x", count: length))
            remaining -= length + 1  // and the space before the next word
        }
        precondition(words.joined(separator: " ").utf8.count == bytes, "no title of \(bytes) bytes from whole words")
        return words
    }

    static let overTheLimit = 1_100_000

    @Test func addRefusesATitleOverTheLineLimitWithoutSendingIt() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "keep", socket: daemon.socket)

        let added = try await todoctl(arguments: ["add"] + Self.words(makingATitleOf: Self.overTheLimit), socket: daemon.socket)
        #expect(added.status == 65, "\(added.stderr)")
        #expect(added.stdout.isEmpty)
        #expect(added.stderr.hasPrefix("todoctl: title too long: \(Self.overTheLimit) bytes; the most is "), "\(added.stderr)")
        #expect(added.stderr.split(separator: "\n").count == 1, "\(added.stderr)")

        // Nothing was added, and todod still serves.
        let listed = try await todoctl("ls", socket: daemon.socket)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == "view main · filter all · sort created\n1  [ ] keep\n1 item left\n")
        #expect(!daemon.log.text.contains("over-long line"), "todoctl sent the request:\n\(daemon.log.text)")
    }

    @Test func editRefusesATitleOverTheLineLimitWithoutSendingIt() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        _ = try await todoctl("add", "keep", socket: daemon.socket)

        let edited = try await todoctl(arguments: ["edit", "1"] + Self.words(makingATitleOf: Self.overTheLimit), socket: daemon.socket)
        #expect(edited.status == 65, "\(edited.stderr)")
        #expect(edited.stderr.hasPrefix("todoctl: title too long: \(Self.overTheLimit) bytes; the most is "), "\(edited.stderr)")

        #expect(try await todoctl("ls", socket: daemon.socket).stdout == "view main · filter all · sort created\n1  [ ] keep\n1 item left\n")
        #expect(!daemon.log.text.contains("over-long line"), "todoctl sent the request:\n\(daemon.log.text)")
    }

    /// "The most" is exact: a title of that many bytes is sent, and todod
    /// reads the whole line (and refuses the title by its own rule, a few
    /// hundred characters); one byte more is refused by todoctl. So todoctl
    /// counts the line as todod does.
    @Test func theMostIsWhereTodoctlAndTodoAgree() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let before = try await todoctl("ls", socket: daemon.socket)

        let over = try await todoctl(arguments: ["add"] + Self.words(makingATitleOf: Self.overTheLimit), socket: daemon.socket)
        let most = try #require(
            over.stderr.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) },
            "\(over.stderr)")
        #expect(most > 1_000_000 && most < 1 << 20, "\(most)")

        let fitting = try await todoctl(arguments: ["add"] + Self.words(makingATitleOf: most), socket: daemon.socket)
        #expect(fitting.status == 65, "\(fitting.stderr)")
        #expect(fitting.stderr.contains("The title is \(most) characters long"), "\(fitting.stderr)")

        let oneMore = try await todoctl(arguments: ["add"] + Self.words(makingATitleOf: most + 1), socket: daemon.socket)
        #expect(oneMore.status == 65, "\(oneMore.stderr)")
        #expect(oneMore.stderr == "todoctl: title too long: \(most + 1) bytes; the most is \(most)\n")

        #expect(!daemon.log.text.contains("over-long line"), "\(daemon.log.text)")
        #expect(try await todoctl("ls", socket: daemon.socket).stdout == before.stdout)
    }
}
