/// A forward-only reader of JSON bytes for the few shapes the client reads
/// in bulk: it finds members without decoding what it skips, and reads
/// strings, numbers and literals. Every method returns nil on anything it
/// does not expect, and the caller falls back to `JSONDecoder`: this is a
/// fast path, never the only one.
struct JSONBytes {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    /// Consumes `byte` (after white space) or fails.
    mutating func expect(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard current == byte else { return false }
        index += 1
        return true
    }

    /// Skips one value of any kind; false if it is not well formed as far as skipping can tell.
    mutating func skipValue() -> Bool {
        skipWhitespace()
        guard let first = current else { return false }
        switch first {
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                default: break
                }
                index += 1
            }
            return false
        default:
            let start = index
            while let byte = current, byte != UInt8(ascii: ","), byte != UInt8(ascii: "}"), byte != UInt8(ascii: "]"),
                byte > 0x20
            {
                index += 1
            }
            return index > start
        }
    }

    private mutating func skipString() -> Bool {
        index += 1  // the opening quote
        while let byte = current {
            index += 1
            if byte == UInt8(ascii: "\\") {
                index += 1
            } else if byte == UInt8(ascii: "\"") {
                return true
            }
        }
        return false
    }

    /// Reads a string, its escapes decoded.
    mutating func readString() -> String? {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else { return nil }
        index += 1
        let start = index
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") { index += 1 }
        guard let stop = current else { return nil }
        if stop == UInt8(ascii: "\"") {
            defer { index += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
        var decoded = Array(bytes[start..<index])
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escape = current else { return nil }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = readHex4() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                            return nil
                        }
                        index += 2
                        guard let low = readHex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    decoded.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    return nil
                }
            default:
                decoded.append(byte)
            }
        }
        return nil
    }

    private mutating func readHex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// A string or null.
    mutating func readOptionalString() -> String?? {
        skipWhitespace()
        if readLiteral("null") { return .some(nil) }
        return readString().map { .some($0) }
    }

    /// A whole number (no fraction or exponent), as the daemon writes ids and counts.
    mutating func readInteger() -> Int64? {
        skipWhitespace()
        var negative = false
        if current == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var value: Int64 = 0
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        guard index > start, current != UInt8(ascii: "."), current != UInt8(ascii: "e"), current != UInt8(ascii: "E") else {
            return nil
        }
        return negative ? -value : value
    }

    mutating func readBool() -> Bool? {
        skipWhitespace()
        if readLiteral("true") { return true }
        if readLiteral("false") { return false }
        return nil
    }

    private mutating func readLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// Where the value of member `key` of the object starting here begins
    /// (the members before it skipped, the value itself not read).
    mutating func valueStart(ofMember key: String) -> Int? {
        guard expect(UInt8(ascii: "{")) else { return nil }
        while true {
            guard let name = readString(), expect(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            if name == key { return index }
            guard skipValue(), let separator = nextSeparator(), separator == UInt8(ascii: ",") else { return nil }
        }
    }

    /// Consumes the `,` or closing bracket after a value and returns it.
    mutating func nextSeparator() -> UInt8? {
        skipWhitespace()
        guard let separator = current else { return nil }
        index += 1
        return separator
    }

    /// An array whose elements `element` reads, each in full.
    mutating func readArray<Element>(_ element: (inout JSONBytes) -> Element?) -> [Element]? {
        guard expect(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            guard let next = element(&self) else { return nil }
            elements.append(next)
            switch nextSeparator() {
            case UInt8(ascii: "]"): return elements
            case UInt8(ascii: ","): continue
            default: return nil
            }
        }
    }

    /// An object whose member values `value` reads, each in full, by key.
    mutating func readObject<Value>(_ value: (inout JSONBytes) -> Value?) -> [String: Value]? {
        guard expect(UInt8(ascii: "{")) else { return nil }
        var members: [String: Value] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            guard let key = readString(), expect(UInt8(ascii: ":")), let next = value(&self) else { return nil }
            members[key] = next
            switch nextSeparator() {
            case UInt8(ascii: "}"): return members
            case UInt8(ascii: ","): continue
            default: return nil
            }
        }
    }

    /// Any JSON number, as a `Double`.
    mutating func readNumber() -> Double? {
        skipWhitespace()
        let start = index
        while let byte = current, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        {
            index += 1
        }
        guard index > start else { return nil }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    /// The byte ranges of the values of an object's members, by key, from
    /// the object starting here (keys are read with their escapes decoded).
    /// Reading stops, before its value, at a key in `stops`: the daemon
    /// writes keys in order, so a reply's `id` comes before its `result`.
    mutating func memberRanges(stoppingAt stops: Set<String> = []) -> [String: Range<Int>]? {
        guard expect(UInt8(ascii: "{")) else { return nil }
        var members: [String: Range<Int>] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            guard let key = readString(), expect(UInt8(ascii: ":")) else { return nil }
            if stops.contains(key) { return members }
            skipWhitespace()
            let start = index
            guard skipValue() else { return nil }
            members[key] = start..<index
            switch nextSeparator() {
            case UInt8(ascii: "}"): return members
            case UInt8(ascii: ","): continue
            default: return nil
            }
        }
    }
}
