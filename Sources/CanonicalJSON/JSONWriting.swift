/// The pieces a `JSONWritable` type writes itself with: scalars escaped and
/// formatted as `CanonicalJSONEncoder` writes them (the same `JSONText`
/// functions), members with their commas, and objects whose keys are not
/// known in advance sorted as the encoder sorts them.
extension [UInt8] {
    public mutating func appendJSONString(_ string: String) {
        JSONText.appendString(string, to: &self)
    }

    /// The string, or `null`: what an `@ExplicitNull` optional writes.
    public mutating func appendJSONString(orNull string: String?) {
        if let string { JSONText.appendString(string, to: &self) } else { appendJSONNull() }
    }

    public mutating func appendJSONInteger(_ value: Int64) {
        JSONText.appendInteger(value, to: &self)
    }

    public mutating func appendJSONInteger(_ value: Int) {
        JSONText.appendInteger(value, to: &self)
    }

    /// Refuses NaN and the infinities with the error the encoder throws.
    public mutating func appendJSONNumber(_ value: Double) throws {
        guard let text = JSONText.number(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        append(contentsOf: text.utf8)
    }

    public mutating func appendJSONBool(_ value: Bool) {
        appendJSONLiteral(value ? "true" : "false")
    }

    public mutating func appendJSONNull() {
        appendJSONLiteral("null")
    }

    /// JSON text as it is, such as `{"item":` or `,"rows":`: a literal, so
    /// there is nothing to escape, and its bytes are copied straight from the
    /// binary (a `String`'s `utf8` costs several times as much to append).
    public mutating func appendJSONLiteral(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// A key known when the code is written, given as it is on the wire
    /// with its quotes and colon (`#""title":"#), after a comma unless it
    /// is its object's first member (`members` counts the object's members
    /// so far, and is advanced). One copy of the literal's bytes, nothing to
    /// escape.
    public mutating func appendJSONKey(literal quotedKeyAndColon: StaticString, members: inout Int) {
        if members > 0 { append(UInt8(ascii: ",")) }
        members += 1
        appendJSONLiteral(quotedKeyAndColon)
    }

    /// `"key":` for any key (escaped), after a comma unless it is its
    /// object's first member, as `appendJSONKey(literal:members:)` writes one.
    public mutating func appendJSONKey(_ key: String, members: inout Int) {
        if members > 0 { append(UInt8(ascii: ",")) }
        members += 1
        JSONText.appendString(key, to: &self)
        append(UInt8(ascii: ":"))
    }

    /// `[ELEMENT,ELEMENT]`, each element written by `element`.
    public mutating func appendJSONArray<Elements: Sequence>(
        _ elements: Elements, element: (Elements.Element, inout [UInt8]) throws -> Void
    ) rethrows {
        append(UInt8(ascii: "["))
        var first = true
        for value in elements {
            if !first { append(UInt8(ascii: ",")) }
            first = false
            try element(value, &self)
        }
        append(UInt8(ascii: "]"))
    }

    /// A dictionary as an object, its keys in UTF-8 byte order, as the
    /// encoder sorts an object whose keys arrive out of order (a
    /// dictionary's come in hash order), each value written by `value`.
    public mutating func appendJSONObject<Value>(
        _ members: [String: Value], value: (Value, inout [UInt8]) throws -> Void
    ) rethrows {
        append(UInt8(ascii: "{"))
        var count = 0
        if members.count == 1, let only = members.first {
            appendJSONKey(only.key, members: &count)
            try value(only.value, &self)
        } else if !members.isEmpty {
            for member in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                appendJSONKey(member.key, members: &count)
                try value(member.value, &self)
            }
        }
        append(UInt8(ascii: "}"))
    }
}
