/// RFC 3986 percent-encoding, byte by byte: the one both URLs todod reads
/// and writes use, a CalDAV server's hrefs and a `postgres://` store URL.
///
/// Bytes rather than Foundation's `String` methods, which refuse what is not
/// UTF-8: a CalDAV server may name a resource `%E9.ics` (Latin-1), and the
/// sync must send the same bytes back. What a decoded part may hold is the
/// caller's rule: libpq takes no NUL, a path segment anything.
public enum PercentEncoding {
    /// What a `%` not followed by two hexadecimal digits means.
    public enum StrayPercent: Sendable {
        /// The text is not percent-encoded: `decode` answers nil.
        case refused
        /// A `%` like any other byte (as browsers and servers read hrefs).
        case literal
    }

    /// The bytes `text` stands for, each `%XX` decoded; nil for a stray `%`
    /// where `strayPercent` is `.refused`.
    public static func decode<Text: StringProtocol>(_ text: Text, strayPercent: StrayPercent = .refused) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%") {
                if index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                    bytes.append(high << 4 | low)
                    index += 3
                    continue
                }
                if strayPercent == .refused { return nil }
            }
            bytes.append(utf8[index])
            index += 1
        }
        return bytes
    }

    /// `bytes` with every byte outside RFC 3986's unreserved characters
    /// (`A–Z a–z 0–9 - . _ ~`) and `alsoAllowed` written as `%XX`, upper-case:
    /// one spelling for each text, which decodes back to the same bytes.
    public static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes, alsoAllowed: Set<UInt8> = []) -> String {
        var result = ""
        result.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes {
            if isUnreserved(byte) || alsoAllowed.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                result.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    /// `text`'s UTF-8 bytes, encoded as `encode(_:alsoAllowed:)` does.
    public static func encode(_ text: String, alsoAllowed: Set<UInt8> = []) -> String {
        encode(text.utf8, alsoAllowed: alsoAllowed)
    }

    /// RFC 3986 §2.3: the bytes a URL never needs to escape.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789ABCDEF".unicodeScalars)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
