import FoundationEssentials

/// Turns Foundation's decoding errors into one sentence a person can act on,
/// naming the offending field ("\"title\" is missing", "\"id\": expected an integer").
enum DecodingErrorText {
    /// `droppingFirst` leaves out the outer keys of the path (e.g. `params`
    /// when the parameters were decoded as a member of the whole request).
    static func describe(_ error: any Error, droppingFirst outerKeys: Int = 0) -> String {
        guard let error = error as? DecodingError else {
            return String(describing: error)
        }
        func path(_ codingPath: [any CodingKey]) -> String { Self.path(Array(codingPath.dropFirst(outerKeys))) }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(typeName(type))"
        case .dataCorrupted(let context):
            // A JSON syntax error's own debug description says where the
            // syntax broke; prefer it to the generic text.
            let underlying = context.underlyingError.flatMap { $0 as? any CustomDebugStringConvertible }?.debugDescription
            let location = context.codingPath.count <= outerKeys ? "" : "\(path(context.codingPath)): "
            return location + (underlying ?? context.debugDescription)
        @unknown default:
            return String(describing: error)
        }
    }

    /// `"commands.[0].params.id"`; "the value" for the whole.
    static func path(_ codingPath: [any CodingKey]) -> String {
        let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        return text.isEmpty ? "the value" : "\"\(text)\""
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean (true or false)"
        case is Int64.Type, is Int.Type: "an integer"
        case is Double.Type: "a number"
        default: "a value of type \(type)"
        }
    }
}
