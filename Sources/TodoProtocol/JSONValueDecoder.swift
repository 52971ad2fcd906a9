import CanonicalJSON

/// Decodes a `Decodable` value straight from a `JSONValue`: how a client
/// reads a view-model property's value out of a state or an event, without
/// writing JSON text and reading it back. Reads what `JSONDecoder` reads
/// from the same JSON, for the protocol's wire types.
///
/// It earns its 220 lines: on the list view model's properties of an
/// organised list it reads all 24 in 57–62 µs where writing them as text and
/// reading that with `JSONDecoder` takes 157–167 µs (2.7×), and applies an
/// edit's six in 19–21 µs against 61–66 µs (3.2×): every event a watching
/// client applies (`json-value-bench`, docs/performance.md, "JSONValue coding").
public enum JSONValueDecoder {
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try decode(type, from: value, at: [], asJSONDecoderReads: false)
    }

    /// `asJSONDecoderReads`: a `JSONValue` inside `T` is decoded by its own
    /// `Decodable`, as `JSONDecoder` would from the text, instead of taken as
    /// it is: `1.0` then becomes the integer 1, as it does when a request's
    /// params are read by `JSONDecoder`.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, asJSONDecoderReads: Bool) throws -> T {
        try decode(type, from: value, at: [], asJSONDecoderReads: asJSONDecoderReads)
    }

    /// A decoder holding `value`, for code that decodes through a `Decoder`
    /// it is handed; `name` (a property's, say) is where errors say it is.
    public static func decoder(for value: JSONValue, named name: String? = nil) -> any Decoder {
        ValueDecoder(value: value, codingPath: name.map { [NameKey(stringValue: $0)] } ?? [], asJSONDecoderReads: false)
    }

    fileprivate static func decode<T: Decodable>(
        _ type: T.Type, from value: JSONValue, at codingPath: [any CodingKey], asJSONDecoderReads: Bool
    ) throws -> T {
        // A JSONValue is itself: no need to try its cases one by one.
        if T.self == JSONValue.self, !asJSONDecoderReads { return value as! T }
        return try T(from: ValueDecoder(value: value, codingPath: codingPath, asJSONDecoderReads: asJSONDecoderReads))
    }

    // The coding path is taken as an autoclosure by what follows: only an
    // error needs it, and making it on every value was a third of the work
    // of decoding a request's params.

    fileprivate static func mismatch<T>(_ type: T.Type, _ value: JSONValue, at codingPath: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(type), got \(value.typeName)"))
    }

    /// `asJSONDecoderReads`: a number written with a fraction or an exponent
    /// is taken only up to 2^53, where every integer is a Double: beyond,
    /// whether `JSONDecoder` takes it depends on the digits as written,
    /// which the tree no longer holds (the caller asks `JSONDecoder` then).
    fileprivate static func integer<T: FixedWidthInteger>(
        _ type: T.Type, from value: JSONValue, at codingPath: @autoclosure () -> [any CodingKey], asJSONDecoderReads: Bool = false
    ) throws -> T {
        let exact: T? =
            switch value {
            case .integer(let integer): T(exactly: integer)
            case .double(let double) where asJSONDecoderReads && double.magnitude > 0x1p53: nil
            case .double(let double): T(exactly: double)
            default: throw mismatch(type, value, at: codingPath())
            }
        guard let exact else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath(), debugDescription: "the number does not fit in \(type)"))
        }
        return exact
    }

    fileprivate static func double(from value: JSONValue, at codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
        switch value {
        case .double(let double): return double
        case .integer(let integer): return Double(integer)
        default: throw mismatch(Double.self, value, at: codingPath())
        }
    }

    fileprivate static func bool(from value: JSONValue, at codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, at: codingPath()) }
        return bool
    }

    fileprivate static func string(from value: JSONValue, at codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, at: codingPath()) }
        return string
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let asJSONDecoderReads: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw JSONValueDecoder.mismatch([String: JSONValue].self, value, at: codingPath)
        }
        return KeyedDecodingContainer(KeyedValueContainer(members: members, codingPath: codingPath, asJSONDecoderReads: asJSONDecoderReads))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw JSONValueDecoder.mismatch([JSONValue].self, value, at: codingPath)
        }
        return UnkeyedValueContainer(elements: elements, codingPath: codingPath, asJSONDecoderReads: asJSONDecoderReads)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath, asJSONDecoderReads: asJSONDecoderReads)
    }
}

private struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]
    let asJSONDecoderReads: Bool

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no \"\(key.stringValue)\""))
        }
        return value
    }

    private func decoder(_ key: Key) throws -> ValueDecoder {
        ValueDecoder(value: try member(key), codingPath: codingPath + [key], asJSONDecoderReads: asJSONDecoderReads)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try JSONValueDecoder.decode(type, from: try member(key), at: codingPath + [key], asJSONDecoderReads: asJSONDecoderReads)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }
    // Strings, booleans and the integers a request holds are read here, not
    // through their `Decodable` (a decoder and a container made per value).
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try JSONValueDecoder.bool(from: member(key), at: codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try JSONValueDecoder.string(from: member(key), at: codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decode(type, key) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try JSONValueDecoder.integer(type, from: member(key), at: codingPath + [key], asJSONDecoderReads: asJSONDecoderReads)
    }

    /// A member that is present and not null, in one lookup (the default
    /// asks `contains`, then `decodeNil`, then reads it).
    private func present(_ key: Key) -> JSONValue? {
        guard let value = members[key.stringValue], value != .null else { return nil }
        return value
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try present(key).map { try JSONValueDecoder.string(from: $0, at: codingPath + [key]) }
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try present(key).map { try JSONValueDecoder.bool(from: $0, at: codingPath + [key]) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try present(key).map { try JSONValueDecoder.integer(type, from: $0, at: codingPath + [key], asJSONDecoderReads: asJSONDecoderReads) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try present(key).map { try JSONValueDecoder.integer(type, from: $0, at: codingPath + [key], asJSONDecoderReads: asJSONDecoderReads) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key).map { try JSONValueDecoder.decode(type, from: $0, at: codingPath + [key], asJSONDecoderReads: asJSONDecoderReads) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder(key).unkeyedContainer() }

    func superDecoder() throws -> any Decoder { try superDecoder(forKey: Key(stringValue: "super")!) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key], asJSONDecoderReads: asJSONDecoderReads)
    }
}

private struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    let asJSONDecoderReads: Bool
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey], asJSONDecoderReads: Bool) {
        self.elements = elements
        self.codingPath = codingPath
        self.asJSONDecoderReads = asJSONDecoderReads
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> ValueDecoder {
        let path = codingPath + [IndexKey(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: path, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], codingPath: path, asJSONDecoderReads: asJSONDecoderReads)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeNext(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeNext(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeNext(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeNext(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeNext(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeNext(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeNext(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeNext(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeNext(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeNext(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeNext(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeNext(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeNext(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeNext(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeNext(type) }

    private mutating func decodeNext<T: Decodable>(_ type: T.Type) throws -> T {
        let element = try next()
        return try JSONValueDecoder.decode(type, from: element.value, at: element.codingPath, asJSONDecoderReads: asJSONDecoderReads)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let asJSONDecoderReads: Bool

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try JSONValueDecoder.bool(from: value, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try JSONValueDecoder.string(from: value, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try JSONValueDecoder.double(from: value, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try JSONValueDecoder.integer(type, from: value, at: codingPath, asJSONDecoderReads: asJSONDecoderReads) }
    func decode(_ type: Int8.Type) throws -> Int8 { try JSONValueDecoder.integer(type, from: value, at: codingPath, asJSONDecoderReads: asJSONDecoderReads) }
    func decode(_ type: Int16.Type) throws -> Int16 { try JSONValueDecoder.integer(type, from: value, at: codingPath, asJSONDecoderReads: asJSONDecoderReads) }
    func decode(_ type: Int32.Type) throws -> Int32 { try JSONValueDecoder.integer(type, from: value, at: codingPath, asJSONDecoderReads: asJSONDecoderReads) }
    func decode(_ type: Int64.Type) throws -> Int64 { try JSONValueDecoder.integer(type, from: value, at: codingPath, asJSONDecoderReads: asJSONDecoderReads) }
    func decode(_ type: UInt.Type) throws -> UInt { try JSONValueDecoder.integer(type, from: value, at: codingPath, asJSONDecoderReads: asJSONDecoderReads) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try JSONValueDecoder.integer(type, from: value, at: codingPath, asJSONDecoderReads: asJSONDecoderReads) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try JSONValueDecoder.integer(type, from: value, at: codingPath, asJSONDecoderReads: asJSONDecoderReads) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try JSONValueDecoder.integer(type, from: value, at: codingPath, asJSONDecoderReads: asJSONDecoderReads) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try JSONValueDecoder.integer(type, from: value, at: codingPath, asJSONDecoderReads: asJSONDecoderReads) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder.decode(type, from: value, at: codingPath, asJSONDecoderReads: asJSONDecoderReads)
    }
}

/// A name as a coding key, for coding paths in errors.
private struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// An array position as a coding key, for coding paths in errors.
private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue!)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
