import Foundation

/// One to-do item as the store keeps it.
///
/// This is the model: plain facts, no wording. How an item is shown (its row
/// text, the counter it contributes to) is decided by the view models.
public struct TodoItem: Identifiable, Hashable, Sendable, Codable {
    public let id: TodoID
    public var title: String
    public var isDone: Bool
    public var createdAt: Date
    public var updatedAt: Date
    /// When the item was last marked done; `nil` while it is active.
    public var completedAt: Date?
    public var due: DueDate?

    public init(
        id: TodoID,
        title: String,
        isDone: Bool = false,
        createdAt: Date,
        updatedAt: Date? = nil,
        completedAt: Date? = nil,
        due: DueDate? = nil
    ) {
        self.id = id
        self.title = title
        self.isDone = isDone
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.completedAt = completedAt
        self.due = due
    }

    /// Not done and past due, at `now` in `timeZone`.
    public func isOverdue(at now: Date, in timeZone: TimeZone) -> Bool {
        guard !isDone, let due else { return false }
        switch due {
        // A due day is over once today is a later day: day numbers, no calendar.
        case .day(let day): return CalendarDay.dayNumber(of: now, in: timeZone) > day.dayNumber
        case .moment(let date): return now >= date
        }
    }

    /// Marks the item done or active at `date`, keeping `completedAt` in step.
    /// Returns `false` when the item already was in that state (nothing to do).
    public mutating func setDone(_ done: Bool, at date: Date) -> Bool {
        guard done != isDone else { return false }
        isDone = done
        completedAt = done ? date : nil
        updatedAt = date
        return true
    }
}
