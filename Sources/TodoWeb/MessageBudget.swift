import Synchronization

/// The bytes of unfinished WebSocket messages that all tabs together may
/// make todod-web hold.
///
/// NIO's frame decoder keeps a frame until its last byte, and Hummingbird
/// keeps a fragmented message until its last frame, each up to the message
/// limit (1 MiB) a tab. Without a budget for all of them, 80 tabs that each
/// stop one byte short hold 80 MiB; with one, the tab whose message would
/// pass it is closed (1013, try again later) before its bytes are kept.
///
/// Each tab's first 16 KiB of a message are its own, so the page's
/// messages (a few hundred bytes) never wait on another tab's big ones: at
/// most 16 KiB a connection beyond the shared budget, and todod-web keeps
/// at most 4 × 64 + 64 connections.
final class MessageBudget: Sendable {
    /// Four messages of the largest size at once.
    static let standardBytes = 4 * TabRelay.maximumMessageBytes
    static let perTabAllowance = 16 * 1024

    let limit: Int
    private let held = Atomic<Int>(0)

    init(bytes: Int = standardBytes) { self.limit = bytes }

    var heldBytes: Int { held.load(ordering: .relaxed) }

    /// Takes `bytes` from the budget, or nothing if that would pass it.
    func take(_ bytes: Int) -> Bool {
        while true {
            let now = held.load(ordering: .relaxed)
            guard now + bytes <= limit else { return false }
            if held.compareExchange(expected: now, desired: now + bytes, ordering: .relaxed).exchanged { return true }
        }
    }

    func giveBack(_ bytes: Int) {
        held.subtract(bytes, ordering: .relaxed)
    }
}
