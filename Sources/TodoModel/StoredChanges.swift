import Synchronization

/// The changes of a stored undo step, read from their stored form once, the
/// first time anything asks for them, and kept (the stored form is let go).
///
/// A class shared by every copy of the step, so that copies read once
/// between them; the lock makes that safe from any thread.
final class StoredChanges: Sendable {
    private enum State {
        case unread(@Sendable () throws -> [ItemChange])
        case read(Result<[ItemChange], any Error>)
    }

    private let state: Mutex<State>

    init(read: @escaping @Sendable () throws -> [ItemChange]) {
        state = Mutex(.unread(read))
    }

    var result: Result<[ItemChange], any Error> {
        state.withLock { state in
            switch state {
            case .read(let result):
                return result
            case .unread(let read):
                let result = Result { try read() }
                state = .read(result)
                return result
            }
        }
    }
}
