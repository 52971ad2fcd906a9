/// A view model's properties (its values apart from rows), each declared
/// once in `declarations`; what has to agree about them comes from there.
///
/// A conforming struct lists one `ViewModelProperty` per stored property,
/// right below them (a test checks that every stored property is declared),
/// and implements `Codable` with `encodeDeclaredProperties(to:)` and
/// `decodeDeclaredProperties(from:)`.
public protocol ViewModelProperties: Codable, Hashable, Sendable {
    static var declarations: [ViewModelProperty<Self>] { get }
}

extension ViewModelProperties {
    /// Every property's name, in the order they are declared.
    public static var names: [String] { declarations.map(\.name) }

    /// The position in `declarations` of the property stored at `keyPath`;
    /// stops the program if none is (a programming error, found by any test
    /// that reaches the caller).
    public static func declarationIndex(of keyPath: PartialKeyPath<Self>) -> Int {
        guard let index = declarations.firstIndex(where: { $0.keyPath == keyPath }) else {
            preconditionFailure("\(keyPath) is not a declared property of \(Self.self)")
        }
        return index
    }

    /// The names of the properties whose values differ from `other`'s, in
    /// the order they are declared.
    public func changedKeys(since other: Self) -> [String] {
        // Both models are put in memory once, and each property read there.
        let declarations = Self.declarations
        var names: [String] = []
        withUnsafePointer(to: self) { left in
            withUnsafePointer(to: other) { right in
                for property in declarations
                where property.differs(self, at: UnsafeRawPointer(left), from: other, at: UnsafeRawPointer(right)) {
                    names.append(property.name)
                }
            }
        }
        return names
    }

    /// Every property, a missing value as null, so a snapshot always has
    /// every key and an event can set one back to null.
    public func encodeDeclaredProperties(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PropertyKey.self)
        for property in Self.declarations {
            try property.encodeEntry(of: self, to: &container)
        }
    }

    /// Reads every property into `self`: a missing nullable one as nil, a
    /// missing other one is an error. Keys that are not properties are
    /// ignored, so an older client reads a newer daemon's state.
    public mutating func decodeDeclaredProperties(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: PropertyKey.self)
        for property in Self.declarations {
            try property.decodeEntry(from: container, into: &self)
        }
    }
}
