/// The precondition of a PUT, so that a write never overwrites a change the
/// caller has not seen (RFC 4791 §5.3.2, RFC 9110 §13.1).
public enum PutCondition: Sendable, Equatable {
    /// Replace the resource only while its ETag is still this one.
    case ifMatch(String)
    /// Create the resource only if nothing is there yet (`If-None-Match: *`).
    case ifNoneMatch
}
