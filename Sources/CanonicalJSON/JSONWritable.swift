/// A value that writes its own JSON, byte for byte what `CanonicalJSONEncoder`
/// writes for it, without going through `Encodable`.
///
/// The generic encoder pays for every key and value it is handed: a call
/// through `KeyedEncodingContainer`, a generic metadata lookup, a check that
/// the keys arrive in order, and retains and releases of its frames. For the
/// few types on every edit's path (the row in a `todo.add` reply and in
/// events) that cost most of the reply's encoding; a type that appends its
/// key literals and values straight into the line skips it. Everything else
/// keeps its `Encodable` conformance and the generic encoder, which stays the
/// reference these writers are tested against.
public protocol JSONWritable {
    /// Appends this value's JSON to `bytes`. Throws what
    /// `CanonicalJSONEncoder` throws for the same value (a number JSON cannot
    /// hold), and then what it appended is not to be used.
    func writeJSON(into bytes: inout [UInt8]) throws
}
