import FoundationEssentials
import TodoModel

/// What the `scheduled` field does beyond holding a value: the query
/// `ready` leaves an item out until its scheduled day begins (or its
/// moment comes).
///
/// Views judge items at the last tick, so that instant is a time event like
/// the end of a wait: `nextEvent` asks for a tick then, and the tick places
/// the item again in every view. A scheduled day begins at a midnight, when
/// the tick compiles every view again anyway; a moment can come at any time.
extension TodoItem {
    /// When the item's scheduled day begins (or its moment comes), if that
    /// is after `now` and the item is not done; otherwise nil.
    func scheduledStart(after now: Date, in timeZone: TimeZone) -> Date? {
        guard !isDone, case .date(let date)? = values[FieldDeclaration.scheduled.name] else { return nil }
        let start = date.sortInstant(in: timeZone)
        return start > now ? start : nil
    }

    /// Not done, and scheduled for a day or moment still ahead at `now`:
    /// what `ready` asks, apart from done and waiting.
    func isScheduledAhead(at now: Date, in timeZone: TimeZone) -> Bool {
        scheduledStart(after: now, in: timeZone) != nil
    }
}
