import FoundationEssentials
import TodoModel

/// What the `until` field does beyond holding a value: past it, an item
/// that is not done has expired, and leaves the views whose query names no
/// status (as a waiting item does before its wait ends); a repeating item
/// makes no occurrence due after it (`TodoCollection.setDone`).
///
/// Views judge items at the last tick, so the moment an item expires is a
/// time event like the end of a wait: `nextEvent` asks for a tick then.
extension TodoItem {
    /// When the item expires, if that is after `now` and it is not done.
    func expiry(after now: Date, in timeZone: TimeZone) -> Date? {
        guard !isDone, let until else { return nil }
        let end = until.overdueFrom(in: timeZone)
        return end > now ? end : nil
    }
}
