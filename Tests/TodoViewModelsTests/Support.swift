import Foundation
import Synchronization
import TodoModel
import TodoViewModels

/// A clock the test sets: fixed until moved, in a fixed zone.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    let timeZone: TimeZone

    init(_ date: Date = TestClock.noon, timeZone: TimeZone = TimeZone(identifier: "Europe/Berlin")!) {
        current = Mutex(date)
        self.timeZone = timeZone
    }

    /// 2026-11-22 12:00 in Berlin.
    static let noon = Date(timeIntervalSince1970: 1_795_345_200)

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var todoClock: TodoClock {
        TodoClock(timeZone: timeZone, now: { [self] in self.now })
    }
}

extension TodoListViewModel {
    /// Adds an item and returns its id.
    @discardableResult
    func add(_ title: String, due: DueDate? = nil) throws -> TodoID {
        TodoID(try perform(.add(title: title, due: due)).row!.id)
    }

    var main: TodoListState { state(of: .main)! }
}
