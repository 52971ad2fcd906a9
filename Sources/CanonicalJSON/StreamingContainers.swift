/// The containers `StreamingEncoder` hands out. Each names its frame by index
/// and id, so writing to one that has closed is noticed (and falls back).
struct StreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StreamingEncoder
    let frame: Int
    let id: Int

    var codingPath: [any CodingKey] { [] }

    private func begin(_ key: Key) -> Bool {
        guard encoder.prepareToWrite(frame: frame, id: id) else { return false }
        encoder.beginMember(frame: frame, key: key.stringValue)
        return true
    }

    mutating func encodeNil(forKey key: Key) throws { if begin(key) { encoder.encodeNull() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { if begin(key) { encoder.encodeBool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { if begin(key) { encoder.encodeString(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { if begin(key) { try encoder.encodeFloatingPoint(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { if begin(key) { try encoder.encodeFloatingPoint(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { if begin(key) { encoder.encodeInteger(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { if begin(key) { encoder.encodeInteger(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { if begin(key) { encoder.encodeInteger(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { if begin(key) { encoder.encodeInteger(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if begin(key) { encoder.encodeInteger(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { if begin(key) { encoder.encodeInteger(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { if begin(key) { encoder.encodeInteger(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { if begin(key) { encoder.encodeInteger(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { if begin(key) { encoder.encodeInteger(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if begin(key) { encoder.encodeInteger(value) } }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { if begin(key) { try encoder.encodeDueValue(value) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        _ = begin(key)
        let nested = encoder.openFrame(isObject: true, nested: true)
        return KeyedEncodingContainer(StreamingKeyedContainer<NestedKey>(encoder: encoder, frame: nested.index, id: nested.id))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        _ = begin(key)
        let nested = encoder.openFrame(isObject: false, nested: true)
        return StreamingUnkeyedContainer(encoder: encoder, frame: nested.index, id: nested.id)
    }

    mutating func superEncoder() -> any Encoder {
        encoder.cannotStream()
        return encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.cannotStream()
        return encoder
    }
}

struct StreamingUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: StreamingEncoder
    let frame: Int
    let id: Int
    private(set) var count = 0

    init(encoder: StreamingEncoder, frame: Int, id: Int) {
        self.encoder = encoder
        self.frame = frame
        self.id = id
    }

    var codingPath: [any CodingKey] { [] }

    private mutating func begin() -> Bool {
        guard encoder.prepareToWrite(frame: frame, id: id) else { return false }
        encoder.beginMember(frame: frame, key: nil)
        count += 1
        return true
    }

    mutating func encodeNil() throws { if begin() { encoder.encodeNull() } }
    mutating func encode(_ value: Bool) throws { if begin() { encoder.encodeBool(value) } }
    mutating func encode(_ value: String) throws { if begin() { encoder.encodeString(value) } }
    mutating func encode(_ value: Double) throws { if begin() { try encoder.encodeFloatingPoint(value) } }
    mutating func encode(_ value: Float) throws { if begin() { try encoder.encodeFloatingPoint(value) } }
    mutating func encode(_ value: Int) throws { if begin() { encoder.encodeInteger(value) } }
    mutating func encode(_ value: Int8) throws { if begin() { encoder.encodeInteger(value) } }
    mutating func encode(_ value: Int16) throws { if begin() { encoder.encodeInteger(value) } }
    mutating func encode(_ value: Int32) throws { if begin() { encoder.encodeInteger(value) } }
    mutating func encode(_ value: Int64) throws { if begin() { encoder.encodeInteger(value) } }
    mutating func encode(_ value: UInt) throws { if begin() { encoder.encodeInteger(value) } }
    mutating func encode(_ value: UInt8) throws { if begin() { encoder.encodeInteger(value) } }
    mutating func encode(_ value: UInt16) throws { if begin() { encoder.encodeInteger(value) } }
    mutating func encode(_ value: UInt32) throws { if begin() { encoder.encodeInteger(value) } }
    mutating func encode(_ value: UInt64) throws { if begin() { encoder.encodeInteger(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { if begin() { try encoder.encodeDueValue(value) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        _ = begin()
        let nested = encoder.openFrame(isObject: true, nested: true)
        return KeyedEncodingContainer(StreamingKeyedContainer<NestedKey>(encoder: encoder, frame: nested.index, id: nested.id))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        _ = begin()
        let nested = encoder.openFrame(isObject: false, nested: true)
        return StreamingUnkeyedContainer(encoder: encoder, frame: nested.index, id: nested.id)
    }

    mutating func superEncoder() -> any Encoder {
        encoder.cannotStream()
        return encoder
    }
}

struct StreamingSingleValueContainer: SingleValueEncodingContainer {
    let encoder: StreamingEncoder

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { encoder.encodeNull() }
    mutating func encode(_ value: Bool) throws { encoder.encodeBool(value) }
    mutating func encode(_ value: String) throws { encoder.encodeString(value) }
    mutating func encode(_ value: Double) throws { try encoder.encodeFloatingPoint(value) }
    mutating func encode(_ value: Float) throws { try encoder.encodeFloatingPoint(value) }
    mutating func encode(_ value: Int) throws { encoder.encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { encoder.encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { encoder.encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { encoder.encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { encoder.encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { encoder.encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { encoder.encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { encoder.encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { encoder.encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { encoder.encodeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        // The value is due here still; it is this container's one value.
        try encoder.encodeDueValue(value)
    }
}
