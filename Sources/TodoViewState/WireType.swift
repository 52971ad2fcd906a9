/// The shape of a view-model property's value as clients see it, said
/// without choosing an encoding: TodoProtocol turns it into a JSON Schema,
/// and a test turns it into the wording of PROTOCOL.md's tables.
public indirect enum WireType: Hashable, Sendable {
    case string
    case integer
    case boolean
    /// A string that is one of these values (an enumeration's raw values).
    case enumeration([String])
    /// An array whose elements have this shape.
    case array(WireType)
    /// A type with a description of its own under this name (the protocol's
    /// `$defs/NAME`), such as `ReminderAlert`.
    case named(String)
    /// This shape, or null.
    case nullable(WireType)
}

/// A type a view-model property can have. It says its own wire shape, so a
/// property's declaration does not repeat what its Swift type already says
/// (`String?` is a nullable string; nothing to keep in step by hand).
public protocol WireTyped: Codable, Hashable, Sendable {
    static var wireType: WireType { get }
}

extension String: WireTyped {
    public static var wireType: WireType { .string }
}

extension Int: WireTyped {
    public static var wireType: WireType { .integer }
}

extension Int64: WireTyped {
    public static var wireType: WireType { .integer }
}

extension Bool: WireTyped {
    public static var wireType: WireType { .boolean }
}

extension Optional: WireTyped where Wrapped: WireTyped {
    public static var wireType: WireType { .nullable(Wrapped.wireType) }
}

extension Array: WireTyped where Element: WireTyped {
    public static var wireType: WireType { .array(Element.wireType) }
}

/// An enumeration with string raw values is written as its raw value, and
/// may be any of its cases': declaring the conformance is enough.
extension WireTyped where Self: CaseIterable & RawRepresentable, RawValue == String {
    public static var wireType: WireType { .enumeration(allCases.map(\.rawValue)) }
}
