/// Encodes an `Encodable` value straight into a `JSONValue`: the form the
/// protocol carries open-ended parts in (a view-model property's value in a
/// state or an event), without writing JSON text and reading it back.
///
/// It produces what `JSONEncoder` writes, read back as a `JSONValue`; the
/// protocol's wire types (strings, integers, booleans, null, arrays, objects)
/// are all it needs to handle. A test checks it against `JSONEncoder`.
public enum JSONValueEncoder {
    public static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let node = Node()
        try value.encode(to: NodeEncoder(node: node, codingPath: []))
        return node.json
    }

    /// One value under construction. Containers are structs handed out by
    /// the encoder, so what they write goes into a shared node.
    fileprivate final class Node {
        var scalar: JSONValue?
        var members: [String: Node]?
        var elements: [Node]?

        var json: JSONValue {
            if let members { return .object(members.mapValues(\.json)) }
            if let elements { return .array(elements.map(\.json)) }
            // A value that wrote nothing is an empty object, as JSONEncoder has it.
            return scalar ?? .object([:])
        }
    }

    fileprivate static func encode<T: Encodable>(_ value: T, at codingPath: [any CodingKey]) throws -> Node {
        let node = Node()
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
        return node
    }

    fileprivate static func integer<T: FixedWidthInteger>(_ value: T, at codingPath: [any CodingKey]) throws -> JSONValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) does not fit in 64 bits"))
        }
        return .integer(exact)
    }

    fileprivate static func double(_ value: Double, at codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
        }
        return .double(value)
    }
}

private struct NodeEncoder: Encoder {
    let node: JSONValueEncoder.Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.members == nil { node.members = [:] }
        return KeyedEncodingContainer(KeyedNodeContainer(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.elements == nil { node.elements = [] }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONValueEncoder.Node
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, _ key: Key) {
        let child = JSONValueEncoder.Node()
        child.scalar = value
        node.members![key.stringValue] = child
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try JSONValueEncoder.double(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Double(value), forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }

    private func encodeInteger<T: FixedWidthInteger>(_ value: T, _ key: Key) throws {
        set(try JSONValueEncoder.integer(value, at: codingPath + [key]), key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.members![key.stringValue] = try JSONValueEncoder.encode(value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        superEncoder(forKey: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        superEncoder(forKey: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = JSONValueEncoder.Node()
        node.members![key.stringValue] = child
        return NodeEncoder(node: child, codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: JSONValueEncoder.Node
    let codingPath: [any CodingKey]
    var count: Int { node.elements!.count }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(intValue: count)] }

    private func append(_ value: JSONValue) {
        let child = JSONValueEncoder.Node()
        child.scalar = value
        node.elements!.append(child)
    }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try JSONValueEncoder.double(value, at: nextPath)) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { append(try JSONValueEncoder.integer(value, at: nextPath)) }
    mutating func encode(_ value: Int8) throws { append(try JSONValueEncoder.integer(value, at: nextPath)) }
    mutating func encode(_ value: Int16) throws { append(try JSONValueEncoder.integer(value, at: nextPath)) }
    mutating func encode(_ value: Int32) throws { append(try JSONValueEncoder.integer(value, at: nextPath)) }
    mutating func encode(_ value: Int64) throws { append(try JSONValueEncoder.integer(value, at: nextPath)) }
    mutating func encode(_ value: UInt) throws { append(try JSONValueEncoder.integer(value, at: nextPath)) }
    mutating func encode(_ value: UInt8) throws { append(try JSONValueEncoder.integer(value, at: nextPath)) }
    mutating func encode(_ value: UInt16) throws { append(try JSONValueEncoder.integer(value, at: nextPath)) }
    mutating func encode(_ value: UInt32) throws { append(try JSONValueEncoder.integer(value, at: nextPath)) }
    mutating func encode(_ value: UInt64) throws { append(try JSONValueEncoder.integer(value, at: nextPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.elements!.append(try JSONValueEncoder.encode(value, at: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        superEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { superEncoder().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder {
        let child = JSONValueEncoder.Node()
        let path = nextPath
        node.elements!.append(child)
        return NodeEncoder(node: child, codingPath: path)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: JSONValueEncoder.Node
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue) { node.scalar = value }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try JSONValueEncoder.double(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { set(try JSONValueEncoder.integer(value, at: codingPath)) }
    mutating func encode(_ value: Int8) throws { set(try JSONValueEncoder.integer(value, at: codingPath)) }
    mutating func encode(_ value: Int16) throws { set(try JSONValueEncoder.integer(value, at: codingPath)) }
    mutating func encode(_ value: Int32) throws { set(try JSONValueEncoder.integer(value, at: codingPath)) }
    mutating func encode(_ value: Int64) throws { set(try JSONValueEncoder.integer(value, at: codingPath)) }
    mutating func encode(_ value: UInt) throws { set(try JSONValueEncoder.integer(value, at: codingPath)) }
    mutating func encode(_ value: UInt8) throws { set(try JSONValueEncoder.integer(value, at: codingPath)) }
    mutating func encode(_ value: UInt16) throws { set(try JSONValueEncoder.integer(value, at: codingPath)) }
    mutating func encode(_ value: UInt32) throws { set(try JSONValueEncoder.integer(value, at: codingPath)) }
    mutating func encode(_ value: UInt64) throws { set(try JSONValueEncoder.integer(value, at: codingPath)) }

    /// The value writes itself into this same node: a single value is not a
    /// container of its own.
    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    }
}

/// An array position as a coding key, for coding paths in errors.
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue!)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
