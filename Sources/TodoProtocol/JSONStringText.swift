/// JSON string literals in both directions, for the few strings read or
/// written by hand instead of through Foundation's coders: an envelope's
/// `method` and `id`, object keys, and a string id spliced into a reply.
enum JSONStringText {
    /// The text of a string literal whose content (between the quotes) is
    /// `range` of `bytes`. The scanner has checked it, so escapes are well
    /// formed and surrogates paired; without escapes it is the bytes as they are.
    /// The contents of the already-validated string whose opening quote is
    /// at `quote`: their range, and whether they hold escapes.
    static func extent(in bytes: UnsafeRawBufferPointer, openingQuoteAt quote: Int) -> (contents: Range<Int>, hasEscapes: Bool) {
        var position = quote + 1
        var hasEscapes = false
        while bytes[position] != UInt8(ascii: "\"") {
            if bytes[position] == UInt8(ascii: "\\") {
                hasEscapes = true
                position += 1
            }
            position += 1
        }
        return (quote + 1..<position, hasEscapes)
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, hasEscapes: Bool) -> String {
        guard hasEscapes else { return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        return String(decoding: decodedBytes(bytes, range), as: UTF8.self)
    }

    /// The UTF-8 bytes a checked string literal's content stands for.
    static func decodedBytes(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(hexValue(bytes, at: index))
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // The scanner made sure a \u escape of a low surrogate follows.
                    let low = UInt32(hexValue(bytes, at: index + 2))
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
            default: out.append(escape)  // \" \\ \/
            }
        }
        return out
    }

    /// The four hex digits at `offset` as a number (checked by the scanner).
    static func hexValue(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt16 {
        var value: UInt16 = 0
        for index in offset..<offset + 4 {
            value = value << 4 | UInt16(hexDigit(bytes[index])!)
        }
        return value
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `string` as a JSON string literal, written the way the daemon's
    /// `JSONEncoder` writes strings (`\"`, `\\`, the short escapes, `\u00XX`
    /// for other control characters, everything else as it is), so an id
    /// spliced into a reply reads exactly like an encoded one.
    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
