import Synchronization

/// The changes of a stored undo step, read from their stored form once, the
/// first time anything asks for them, and kept.
///
/// A class shared by every copy of the step, so that copies read once
/// between them; the lock makes that safe from any thread.
final class StoredChanges: Sendable {
    private let read: @Sendable () throws -> [ItemChange]
    private let state = Mutex<Result<[ItemChange], any Error>?>(nil)

    init(read: @escaping @Sendable () throws -> [ItemChange]) {
        self.read = read
    }

    var result: Result<[ItemChange], any Error> {
        state.withLock { state in
            if let state { return state }
            let result = Result { try read() }
            state = result
            return result
        }
    }
}
