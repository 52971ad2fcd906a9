import FoundationEssentials

/// Encodes `Encodable` values as compact JSON with sorted keys and unescaped
/// slashes: byte for byte what Foundation's `JSONEncoder` writes with
/// `[.sortedKeys, .withoutEscapingSlashes]`, at a fraction of its cost.
///
/// Every reply and every event line, and every stored undo step, is encoded
/// once per edit; `JSONEncoder` builds a tree of boxed values for each and
/// then sorts and serializes it, which made encoding the largest part of an
/// edit's CPU time. This encoder writes bytes as the value's `encode(to:)`
/// calls arrive. An object whose keys arrive in sorted order (declare a wire
/// type's properties alphabetically) is written as it goes; one whose keys do
/// not (a dictionary, say) has its members sorted when it closes.
///
/// A value that uses what cannot be streamed — writing to a container after a
/// later one was opened, `superEncoder`, the same key twice, or a type that
/// `JSONEncoder` treats specially (`Data`, `URL`, `Decimal`) — is encoded by
/// `JSONEncoder` instead, so the output is always what `JSONEncoder` writes.
public struct CanonicalJSONEncoder: Sendable {
    /// Dates as milliseconds since 1970, like `JSONEncoder`'s
    /// `.millisecondsSince1970`; otherwise as `Date` encodes itself.
    public var datesAsMillisecondsSince1970: Bool

    public init(datesAsMillisecondsSince1970: Bool = false) {
        self.datesAsMillisecondsSince1970 = datesAsMillisecondsSince1970
    }

    /// `value` as JSON.
    public func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(value, appendingTo: &bytes)
        return bytes
    }

    /// Appends `value` as JSON to `bytes`, so a line can be built in one buffer.
    public func encode<Value: Encodable>(_ value: Value, appendingTo bytes: inout [UInt8]) throws {
        let encoder = StreamingEncoder(bytes: bytes, datesAsMilliseconds: datesAsMillisecondsSince1970)
        bytes = []  // the encoder holds the only reference, so appending does not copy
        defer { bytes = encoder.bytes }
        let start = encoder.bytes.count
        try encoder.encodeTopLevel(value)
        if encoder.needsFoundation {
            encoder.bytes.removeSubrange(start...)
            encoder.bytes.append(contentsOf: try foundationEncoder.encode(value))
        }
    }

    private var foundationEncoder: JSONEncoder {
        datesAsMillisecondsSince1970 ? Self.foundationMilliseconds : Self.foundation
    }

    private static let foundation: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static let foundationMilliseconds: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()
}
