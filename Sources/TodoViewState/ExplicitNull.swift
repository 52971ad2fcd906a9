/// An optional field that is always written: `null` when it has no value.
///
/// The protocol promises that every key of a result, event or row is present,
/// a missing value as `null` (PROTOCOL.md, *Types*), while a synthesized
/// `Codable` conformance leaves a nil optional out. Marking such a field
/// `@ExplicitNull` keeps the synthesized conformance and writes the key
/// anyway, so a new field cannot silently drop off the wire because someone
/// forgot to add it to a hand-written `encode(to:)`. Reading stays lenient:
/// a missing key decodes as nil, as it does for a plain optional.
///
/// Optional fields that are meant to be left out when nil (request
/// parameters such as `ViewSelection`'s, `RowEdit`'s per-operation fields)
/// are plain optionals.
@propertyWrapper
public struct ExplicitNull<Wrapped> {
    public var wrappedValue: Wrapped?

    public init(wrappedValue: Wrapped?) { self.wrappedValue = wrappedValue }
}

extension ExplicitNull: Encodable where Wrapped: Encodable {
    /// Synthesized conformances call `encode(_:forKey:)`, never
    /// `encodeIfPresent`, for a wrapper (it is not itself optional), so the
    /// key is always written and this writes its value or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension ExplicitNull: Decodable where Wrapped: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Wrapped.self)
    }
}

extension KeyedDecodingContainer {
    /// Picked over the generic `decode(_:forKey:)` by synthesized
    /// conformances, so that a missing key reads as nil, as it would for a
    /// plain optional, instead of failing with `keyNotFound`.
    public func decode<Wrapped: Decodable>(_ type: ExplicitNull<Wrapped>.Type, forKey key: Key) throws -> ExplicitNull<Wrapped> {
        ExplicitNull(wrappedValue: try decodeIfPresent(Wrapped.self, forKey: key))
    }
}

extension ExplicitNull: Equatable where Wrapped: Equatable {}
extension ExplicitNull: Hashable where Wrapped: Hashable {}
extension ExplicitNull: Sendable where Wrapped: Sendable {}
