/// The PostgreSQL server could not be reached or did not answer in time.
///
/// Nothing of the work at hand is known to be stored; the daemon answers
/// edits with `store.unavailable`, serves reads from memory, and reconnects.
public enum StoreUnavailable: Error, CustomStringConvertible, Sendable {
    case timedOut(seconds: Double)
    case unreachable(server: String, reason: String)

    public var description: String {
        switch self {
        case .timedOut(let seconds):
            "the PostgreSQL server did not answer within \(Int(seconds)) seconds"
        case .unreachable(let server, let reason):
            "the PostgreSQL server \(server) cannot be reached: \(reason)"
        }
    }
}
