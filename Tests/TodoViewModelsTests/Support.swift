import Foundation
import Synchronization
import TodoModel
import TodoViewModels
import TodoViewState

/// A clock the test sets: fixed until moved, in a fixed zone.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    let timeZone: TimeZone

    init(_ date: Date = TestClock.noon, timeZone: TimeZone = .berlin) {
        current = Mutex(date)
        self.timeZone = timeZone
    }

    /// 2026-11-22 12:00 in Berlin, a Sunday.
    static let noon = Date(timeIntervalSince1970: 1_795_345_200)

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Moves the clock to `date`, which must not be earlier: time in the
    /// view models only runs forward.
    func set(to date: Date) {
        current.withLock {
            precondition(date >= $0, "the test clock only moves forward")
            $0 = date
        }
    }

    var todoClock: TodoClock {
        TodoClock(timeZone: timeZone, now: { [self] in self.now })
    }
}

extension TimeZone {
    /// The zone most tests run in: it has a DST change, which the
    /// recurrence tests cross.
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
}

/// The instant of a wall-clock time in `timeZone` (Berlin unless said).
func wallClock(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, in timeZone: TimeZone = .berlin
) -> Date {
    CalendarDay(year: year, month: month, day: day).moment(at: TimeOfDay(hour: hour, minute: minute)!, in: timeZone)
}

/// A calendar day, shorter to write.
func calendarDay(_ year: Int, _ month: Int, _ day: Int) -> CalendarDay {
    CalendarDay(year: year, month: month, day: day)
}

extension TodoListViewModel {
    /// Adds an item and returns its id.
    @discardableResult
    func add(_ title: String, due: DueDate? = nil) throws -> TodoID {
        TodoID(try perform(.add(title: title, due: due)).row!.id)
    }

    /// Adds an item from shorthand (`buy milk +errands due:fri`) and returns its id.
    @discardableResult
    func add(shorthand text: String) throws -> TodoID {
        TodoID(try perform(.addText(text)).row!.id)
    }

    /// The item as the view model holds it now.
    func item(_ id: TodoID) -> TodoItem? {
        snapshot.items.first { $0.id == id }
    }

    var main: TodoListState { state(of: .main)! }

    /// The ids of a view's rows, in order.
    func ids(of view: ViewID) -> [Int64] {
        state(of: view)!.rows.map(\.id)
    }
}
