/// The kind of a JSON value, as the scanner saw it.
public enum JSONKind: Hashable, Sendable {
    case object, array, string, number, boolean, null

    /// For messages: "expected an object, got a string".
    public var typeName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .boolean: "a boolean"
        case .null: "null"
        }
    }
}
