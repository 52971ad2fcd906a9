/// Percent-escapes in a store URL, as libpq reads them: every part of a
/// `postgres://` URL (user, host, database, each query name and value) is
/// split on its raw delimiters first and decoded after, so `%40` in a user
/// name is an `@` and `%2F` in a host is a `/` (a socket directory), never a
/// delimiter.
enum PercentEncoding {
    /// The text `part` stands for, or nil if a `%` is not followed by two
    /// hexadecimal digits, or the bytes are not UTF-8, or hold a NUL (which
    /// no C string, and so no libpq parameter, can carry).
    static func decode<S: StringProtocol>(_ part: S) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(part.utf8.count)
        var iterator = part.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `text` with every byte outside RFC 3986's unreserved characters and
    /// `alsoAllowed` written as `%XX`: what makes a normalized URL read back
    /// to the same parts.
    static func encode(_ text: String, alsoAllowed: Set<UInt8> = []) -> String {
        var result = ""
        for byte in text.utf8 {
            if isUnreserved(byte) || alsoAllowed.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%"
                result += String(byte >> 4, radix: 16, uppercase: true)
                result += String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return result
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
