/// One property of a view model, declared once: its name on the wire, a
/// line saying what it means, and where its value lives. Its shape on the
/// wire (and so whether it can be null) follows from the Swift type of that
/// value (see `WireTyped`).
///
/// Clients subscribe to properties by name, receive changed ones by name and
/// read their schema by name, so the names and what goes with them used to be
/// written out in five places that had to agree. Now everything is derived
/// from the declarations (`ViewModelProperties.declarations`): the change
/// keys, the names a subscription may watch, the `Codable` form (every
/// property written, a missing value as `null`), and, in TodoProtocol, the
/// wire values of a subset, applying a changed subset on a client, and the
/// JSON Schema. Adding a property is its stored property, its declaration
/// next to it, and the code that computes it.
///
/// A class: every edit compares every property of every open view, and a
/// declaration read out of the list as a struct was copied with its six
/// closures each time.
public final class ViewModelProperty<Model>: Sendable {
    /// The name clients use: in `properties` of a state or an event, in a
    /// subscription's list, in the schema. By convention the Swift name.
    public let name: String
    /// What the property means, for people: the schema's description.
    public let doc: String
    public let wireType: WireType
    /// Where the value lives: code that knows what a property is made from
    /// finds its declaration by it (`declarationIndex(of:)`).
    public let keyPath: PartialKeyPath<Model> & Sendable

    private let compare: @Sendable (Model, Model) -> Bool
    /// For a stored property: whether it differs between two models in
    /// memory, read at its offset (see `changedKeys(since:)`).
    private let compareStored: (@Sendable (UnsafeRawPointer, UnsafeRawPointer) -> Bool)?
    private let copier: @Sendable (Model, inout Model) -> Void
    private let valueEncoder: @Sendable (Model, any Encoder) throws -> Void
    private let valueDecoder: @Sendable (any Decoder, inout Model) throws -> Void
    private let entryEncoder: @Sendable (Model, inout KeyedEncodingContainer<PropertyKey>) throws -> Void
    private let entryDecoder: @Sendable (KeyedDecodingContainer<PropertyKey>, inout Model) throws -> Void

    public init<Value: WireTyped>(_ name: String, _ keyPath: WritableKeyPath<Model, Value> & Sendable, doc: String) {
        self.name = name
        self.doc = doc
        wireType = Value.wireType
        self.keyPath = keyPath
        compare = { $0[keyPath: keyPath] != $1[keyPath: keyPath] }
        if let offset = MemoryLayout<Model>.offset(of: keyPath) {
            // A stored property (every declared one is): read at its offset.
            // Every edit compares the properties of every open view, and a
            // key-path projection per read cost ten times this.
            compareStored = { left, right in
                left.load(fromByteOffset: offset, as: Value.self) != right.load(fromByteOffset: offset, as: Value.self)
            }
        } else {
            compareStored = nil
        }
        copier = { $1[keyPath: keyPath] = $0[keyPath: keyPath] }
        valueEncoder = { model, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(model[keyPath: keyPath])
        }
        valueDecoder = { decoder, model in
            model[keyPath: keyPath] = try decoder.singleValueContainer().decode(Value.self)
        }
        let key = PropertyKey(name)
        // What a missing key stands for: nil for a nullable property (read
        // leniently, like a plain optional); nothing, so an error, otherwise.
        let valueWhenMissing = (Value.self as? any ExpressibleByNilLiteral.Type).map { $0.init(nilLiteral: ()) as! Value }
        entryEncoder = { model, container in
            // The value, or null: never left out.
            try container.encode(model[keyPath: keyPath], forKey: key)
        }
        entryDecoder = { container, model in
            if !container.contains(key), let valueWhenMissing {
                model[keyPath: keyPath] = valueWhenMissing
            } else {
                model[keyPath: keyPath] = try container.decode(Value.self, forKey: key)
            }
        }
    }

    /// Whether the property's value differs between the two.
    public func differs(_ model: Model, from other: Model) -> Bool { compare(model, other) }

    /// `differs`, for models whose memory `modelAddress` and `otherAddress`
    /// point to (a stored property is read there).
    func differs(_ model: Model, at modelAddress: UnsafeRawPointer, from other: Model, at otherAddress: UnsafeRawPointer) -> Bool {
        if let compareStored { return compareStored(modelAddress, otherAddress) }
        return compare(model, other)
    }

    /// Sets this property of `target` to its value in `source`.
    public func copyValue(from source: Model, to target: inout Model) { copier(source, &target) }

    /// Writes this property's value alone (to an encoder that produces a
    /// wire value, say).
    public func encodeValue(of model: Model, to encoder: any Encoder) throws { try valueEncoder(model, encoder) }

    /// Sets this property of `model` to the value `decoder` holds.
    public func decodeValue(from decoder: any Decoder, into model: inout Model) throws { try valueDecoder(decoder, &model) }

    func encodeEntry(of model: Model, to container: inout KeyedEncodingContainer<PropertyKey>) throws {
        try entryEncoder(model, &container)
    }

    func decodeEntry(from container: KeyedDecodingContainer<PropertyKey>, into model: inout Model) throws {
        try entryDecoder(container, &model)
    }
}

/// A property's name as a coding key.
struct PropertyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
