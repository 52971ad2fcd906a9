/// JSON text for scalars, written the way Foundation's `JSONEncoder` writes
/// them, so `CanonicalJSONEncoder` and `JSONEncoder` agree byte for byte.
enum JSONText {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A string in quotes: `"` and `\` escaped, control characters as `\b`,
    /// `\t`, `\n`, `\f`, `\r` or `\u00XX`; everything else (slashes,
    /// non-ASCII) as it is.
    static func appendString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                default:
                    bytes.append(contentsOf: "u00".utf8)
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    static func appendInteger<Integer: BinaryInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendMagnitude(UInt64(value.magnitude), to: &bytes)
    }

    private static func appendMagnitude(_ magnitude: UInt64, to bytes: inout [UInt8]) {
        // 20 digits hold UInt64.max.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var remaining = magnitude
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// The shortest text that reads back as the same number, without a
    /// trailing `.0` (`30`, `0.5`, `1e+20`), as `JSONEncoder` writes it; nil
    /// for NaN and the infinities, which JSON cannot hold.
    static func number<Floating: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Floating) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
