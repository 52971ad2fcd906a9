/// The scanner's messages for what went wrong, each naming the byte where
/// reading stopped and, where a common mistake explains it, the mistake.
extension JSONReader {
    /// A byte order mark says the sender meant another encoding, or UTF-8
    /// with a mark JSON forbids (RFC 8259, 8.1); NUL bytes, found where they
    /// occur, say UTF-16 or UTF-32 without one.
    mutating func refuseOtherEncodings() throws(JSONSyntaxError) {
        // Every mark begins with a byte JSON text never begins with.
        guard end >= 2, bytes[0] == 0xEF || bytes[0] == 0xFE || bytes[0] == 0xFF || bytes[0] == 0 else { return }
        if end >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            throw JSONSyntaxError(offset: 0, "a UTF-8 byte order mark (EF BB BF); JSON here is UTF-8 without one")
        }
        let utf16 = (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE)
        let utf32 = end >= 4 && bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0xFE && bytes[3] == 0xFF
        if utf16 || utf32 {
            throw JSONSyntaxError(offset: 0, "a UTF-16 or UTF-32 byte order mark; JSON here is UTF-8")
        }
    }

    func endOfLine(inside level: JSONLevel?) -> JSONSyntaxError {
        guard let level else { return JSONSyntaxError(offset: end, "the line ends where a value should be") }
        return JSONSyntaxError(
            offset: end, "the line ends inside the \(level.isObject ? "object" : "array") that starts at byte \(level.start)")
    }

    /// The byte at `position` is not what the grammar allows there.
    mutating func unexpected(expecting expected: String) -> JSONSyntaxError {
        let byte = bytes[position]
        let problem: String
        switch byte {
        case 0:
            problem = "a NUL byte where \(expected) should be; JSON here is UTF-8, not UTF-16 or UTF-32"
        case UInt8(ascii: "'"):
            problem = "expected \(expected), found a single quote; JSON strings and keys take double quotes"
        case UInt8(ascii: "/"):
            problem = "expected \(expected), found '/'; JSON has no comments"
        case UInt8(ascii: "N"), UInt8(ascii: "I"), UInt8(ascii: "+"), UInt8(ascii: "."):
            problem = "expected \(expected), found \(describeByte()); JSON numbers have no NaN, Infinity, leading '+' or leading '.'"
        case 0x80...:
            // Say whether it is a character JSON does not allow here, or not UTF-8 at all.
            let start = position
            do {
                try multibyteCharacter()
            } catch {
                return error
            }
            let scalar = String(decoding: bytes[start..<position], as: UTF8.self).unicodeScalars.first!
            position = start
            problem = "expected \(expected), found the character U+\(Self.hex(scalar.value, digits: 4))"
        default:
            problem = "expected \(expected), found \(describeByte())"
        }
        return JSONSyntaxError(offset: position, problem)
    }

    /// The byte at `position`, for a message: `'x'` or `byte 0x0B`.
    func describeByte() -> String {
        let byte = bytes[position]
        if byte > 0x20 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return "byte 0x\(Self.hex(UInt32(byte), digits: 2))"
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    static func shortened(_ text: String) -> String {
        text.count <= 40 ? text : text.prefix(40) + "…"
    }
}
