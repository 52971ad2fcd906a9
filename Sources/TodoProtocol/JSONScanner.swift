#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One pass over a line that checks it is exactly one JSON value and notes
/// where the values one or two levels down are, without building a tree:
/// a request's envelope members are found by their byte ranges, and only
/// `params` is decoded, straight from its bytes, once its type is known.
///
/// Strict, because a line that two JSON parsers would read differently is a
/// line whose meaning is not clear (RFC 8259; the issue's item 4):
/// - UTF-8 only, checked byte by byte (in strings too): no byte order mark,
///   no UTF-16 or UTF-32, no overlong forms, no surrogates encoded in UTF-8,
///   nothing beyond U+10FFFF, no sequence cut short.
/// - No duplicate keys in any object at any depth: parsers disagree on which
///   one wins, so the line has no single meaning.
/// - Only JSON itself: no trailing commas, leading zeros, `NaN`, `Infinity`,
///   single quotes, comments or raw control characters in strings; escapes
///   as RFC 8259 lists them, and a `\u` escape of a surrogate only as half
///   of a pair; nothing but whitespace after the value.
/// - At most `maximumDepth` nested arrays and objects, counted as they are
///   opened, so no input can make anything recurse deeper (the scanner
///   itself is a loop; escapes in strings are inside strings and count for
///   nothing).
/// Numbers may have any length: whether one fits is for the type it is
/// decoded into to say, and that is an invalid parameter, not a parse error.
struct JSONScanner {
    /// A value directly inside the top-level value (depth 1), or directly
    /// inside one of those (depth 2) when the caller asked for two levels.
    struct Member {
        /// Its key when it is in an object, nil in an array.
        var key: JSONStringSpan?
        var value: Range<Int>
        var kind: JSONKind
        /// The index (in `members`) of the member it is inside, or -1 when it
        /// is directly inside the top-level value.
        var parent: Int
    }

    struct Scan {
        var kind: JSONKind
        var value: Range<Int>
        /// In the order their values begin.
        var members: [Member]
    }

    /// No todod message needs more: the deepest, a transaction command's
    /// params, is 5 levels down.
    static let maximumDepth = 32

    /// Checks `bytes` and lists the members down to `recordingDepth` levels
    /// (0: none, 1: the top-level value's own, 2: theirs too).
    static func scan(_ bytes: UnsafeRawBufferPointer, recordingDepth: Int = 0) throws(JSONSyntaxError) -> Scan {
        // The open arrays and objects live on the stack: there are at most 32.
        try withUnsafeTemporaryAllocation(of: JSONLevel.self, capacity: maximumDepth) { (storage) throws(JSONSyntaxError) in
            var reader = JSONReader(bytes)
            try reader.refuseOtherEncodings()
            return try reader.document(recordingDepth: recordingDepth, levels: JSONLevels(storage: storage))
        }
    }

    /// Whether `bytes` is only JSON whitespace (or nothing): such a line is
    /// skipped, not answered.
    static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.allSatisfy(isWhitespace)
    }

    /// Space, tab, carriage return, line feed: JSON's whitespace.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
}

/// The scanner's position in the bytes and the ways of reading each token.
/// Every `throw` names the byte where reading stopped.
struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    let end: Int
    var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.end = bytes.count
    }

    /// Past this many keys, an object's keys go into a set, so a line of
    /// 100,000 keys costs 100,000 lookups and not 5 billion comparisons.
    private static let keysBeforeSet = 16

    // MARK: The document

    mutating func document(recordingDepth: Int, levels: JSONLevels) throws(JSONSyntaxError) -> JSONScanner.Scan {
        skipWhitespace()
        guard position < end else { throw JSONSyntaxError(offset: position, "the line holds no JSON value") }
        let topStart = position
        var topKind = JSONKind.null
        var topEnd = position
        var levels = levels
        var members: [JSONScanner.Member] = []
        if recordingDepth > 0 { members.reserveCapacity(8) }
        // The keys of every open object, innermost last, for finding duplicates.
        var keys: [JSONStringSpan] = []
        keys.reserveCapacity(16)
        var keySets: [Set<[UInt8]>] = []
        var pendingKey: JSONStringSpan?

        nextValue: while true {
            // A value begins at `position`, inside `levels.last` (at the top when empty).
            let depth = levels.count
            let start = position
            var member = -1
            if depth >= 1 && depth <= recordingDepth {
                member = members.count
                members.append(.init(key: pendingKey, value: start..<start, kind: .null, parent: levels[depth - 1].member))
            }
            pendingKey = nil
            guard position < end else { throw endOfLine(inside: levels.last) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                guard depth < JSONScanner.maximumDepth else {
                    throw JSONSyntaxError(
                        offset: position, "arrays and objects are nested more than \(JSONScanner.maximumDepth) levels deep")
                }
                let isObject = byte == UInt8(ascii: "{")
                levels.append(JSONLevel(isObject: isObject, start: start, member: member, firstKey: keys.count, keySet: -1))
                if member >= 0 { members[member].kind = isObject ? .object : .array }
                if depth == 0 { topKind = isObject ? .object : .array }
                position += 1
                skipWhitespace()
                if position < end && bytes[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    close(&levels, &members, &keys, &keySets, topEnd: &topEnd)
                } else {
                    if isObject { pendingKey = try key(&levels, &keys, &keySets) }
                    continue nextValue
                }
            } else {
                let kind = try scalar()
                if member >= 0 {
                    members[member].kind = kind
                    members[member].value = start..<position
                }
                if depth == 0 {
                    topKind = kind
                    topEnd = position
                }
            }

            // After a value: a comma and the next one, the end of open
            // arrays and objects, or the end of the line.
            while true {
                skipWhitespace()
                guard let level = levels.last else {
                    guard position == end else {
                        throw JSONSyntaxError(
                            offset: position,
                            "expected the end of the line after the JSON value, found \(describeByte()); send one message per line")
                    }
                    return JSONScanner.Scan(kind: topKind, value: topStart..<topEnd, members: members)
                }
                guard position < end else { throw endOfLine(inside: level) }
                let closer = level.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    let comma = position
                    position += 1
                    skipWhitespace()
                    if position < end && bytes[position] == closer {
                        throw JSONSyntaxError(offset: comma, "a trailing comma before '\(Character(UnicodeScalar(closer)))'")
                    }
                    if level.isObject { pendingKey = try key(&levels, &keys, &keySets) }
                    continue nextValue
                }
                guard byte == closer else {
                    throw unexpected(expecting: level.isObject ? "',' or '}'" : "',' or ']'")
                }
                position += 1
                close(&levels, &members, &keys, &keySets, topEnd: &topEnd)
            }
        }
    }

    private mutating func close(
        _ levels: inout JSONLevels, _ members: inout [JSONScanner.Member], _ keys: inout [JSONStringSpan],
        _ keySets: inout [Set<[UInt8]>], topEnd: inout Int
    ) {
        let level = levels.removeLast()
        if level.keySet >= 0 { keySets.removeLast() }
        keys.removeSubrange(level.firstKey...)
        if level.member >= 0 { members[level.member].value = level.start..<position }
        if levels.isEmpty { topEnd = position }
    }

    /// An object's key and the colon after it; refuses a key the object already has.
    private mutating func key(
        _ levels: inout JSONLevels, _ keys: inout [JSONStringSpan], _ keySets: inout [Set<[UInt8]>]
    ) throws(JSONSyntaxError) -> JSONStringSpan {
        guard position < end else { throw endOfLine(inside: levels.last) }
        guard bytes[position] == UInt8(ascii: "\"") else { throw unexpected(expecting: "a key in double quotes") }
        let keyStart = position
        let span = try string()
        let level = levels.count - 1
        if levels[level].keySet >= 0 {
            guard keySets[levels[level].keySet].insert(decoded(span)).inserted else { throw duplicate(span, at: keyStart) }
        } else {
            for other in keys[levels[level].firstKey...] where same(other, span) { throw duplicate(span, at: keyStart) }
            keys.append(span)
            if keys.count - levels[level].firstKey > Self.keysBeforeSet {
                keySets.append(Set(keys[levels[level].firstKey...].map(decoded)))
                levels[level].keySet = keySets.count - 1
            }
        }
        skipWhitespace()
        guard position < end else { throw endOfLine(inside: levels.last) }
        guard bytes[position] == UInt8(ascii: ":") else { throw unexpected(expecting: "':' after the key") }
        position += 1
        skipWhitespace()
        return span
    }

    private func same(_ a: JSONStringSpan, _ b: JSONStringSpan) -> Bool {
        if a.hasEscapes || b.hasEscapes { return decoded(a) == decoded(b) }
        return a.content.count == b.content.count
            && memcmp(bytes.baseAddress! + a.content.lowerBound, bytes.baseAddress! + b.content.lowerBound, a.content.count) == 0
    }

    private func decoded(_ span: JSONStringSpan) -> [UInt8] {
        span.hasEscapes ? JSONStringText.decodedBytes(bytes, span.content) : Array(bytes[span.content])
    }

    private func duplicate(_ span: JSONStringSpan, at offset: Int) -> JSONSyntaxError {
        let name = JSONStringText.decode(bytes, span.content, hasEscapes: span.hasEscapes)
        return JSONSyntaxError(
            offset: offset,
            "the key \(JSONStringText.quoted(Self.shortened(name))) appears twice in one object; keys must be unique")
    }

    // MARK: Tokens

    /// A string, number, `true`, `false` or `null`: the kinds that are one token.
    private mutating func scalar() throws(JSONSyntaxError) -> JSONKind {
        switch bytes[position] {
        case UInt8(ascii: "\""):
            _ = try string()
            return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
            return .number
        case UInt8(ascii: "t"):
            try word("true")
            return .boolean
        case UInt8(ascii: "f"):
            try word("false")
            return .boolean
        case UInt8(ascii: "n"):
            try word("null")
            return .null
        default:
            throw unexpected(expecting: "a value")
        }
    }

    private mutating func word(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard end - position >= count,
            bytes[position..<position + count].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count))
        else {
            throw JSONSyntaxError(offset: position, "an unknown word; JSON's only words are true, false and null")
        }
        position += count
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, of any length.
    private mutating func number() throws(JSONSyntaxError) {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < end, Self.isDigit(bytes[position]) else {
            throw JSONSyntaxError(offset: position, "a '-' must be followed by a digit")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < end, Self.isDigit(bytes[position]) {
                throw JSONSyntaxError(offset: start, "a number with a leading zero; write 7, not 07")
            }
        } else {
            skipDigits()
        }
        if position < end, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < end, Self.isDigit(bytes[position]) else {
                throw JSONSyntaxError(offset: position, "a '.' in a number must be followed by a digit")
            }
            skipDigits()
        }
        if position < end, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < end, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < end, Self.isDigit(bytes[position]) else {
                throw JSONSyntaxError(offset: position, "an exponent in a number must have digits")
            }
            skipDigits()
        }
    }

    private mutating func skipDigits() {
        while position < end, Self.isDigit(bytes[position]) { position += 1 }
    }

    /// A string literal, from its opening quote to just past its closing one.
    mutating func string() throws(JSONSyntaxError) -> JSONStringSpan {
        let open = position
        position += 1
        var hasEscapes = false
        while true {
            // Plain printable ASCII, the bulk of most strings, in a tight loop.
            var plain = position
            while plain < end {
                let byte = bytes[plain]
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
                plain += 1
            }
            position = plain
            guard position < end else {
                throw JSONSyntaxError(offset: position, "the line ends inside the string that starts at byte \(open)")
            }
            let byte = bytes[position]
            if byte >= 0x20 && byte < 0x80 {
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return JSONStringSpan(content: open + 1..<position - 1, hasEscapes: hasEscapes)
                }
                if byte == UInt8(ascii: "\\") {
                    hasEscapes = true
                    try escape()
                } else {
                    position += 1
                }
            } else if byte >= 0x80 {
                try multibyteCharacter()
            } else if byte == 0 {
                throw JSONSyntaxError(offset: position, "a NUL byte in a string; JSON here is UTF-8, not UTF-16 or UTF-32")
            } else {
                throw JSONSyntaxError(
                    offset: position,
                    "a raw control character (U+\(Self.hex(UInt32(byte), digits: 4))) in a string; escape it, e.g. as \\n or \\u\(Self.hex(UInt32(byte), digits: 4))"
                )
            }
        }
    }

    /// One escape, from its backslash.
    private mutating func escape() throws(JSONSyntaxError) {
        let start = position
        guard position + 1 < end else {
            throw JSONSyntaxError(offset: end, "the line ends inside an escape in a string")
        }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            let unit = try hexEscape(at: start)
            position += 6
            if (0xD800...0xDBFF).contains(unit) {
                let paired =
                    position + 1 < end && bytes[position] == UInt8(ascii: "\\") && bytes[position + 1] == UInt8(ascii: "u")
                guard paired, (0xDC00...0xDFFF).contains(try hexEscape(at: position)) else {
                    throw JSONSyntaxError(
                        offset: start,
                        "a lone surrogate \\u\(Self.hex(UInt32(unit), digits: 4)): a high surrogate (D800–DBFF) must be followed by a \\u escape of a low one (DC00–DFFF)"
                    )
                }
                position += 6
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw JSONSyntaxError(
                    offset: start,
                    "a lone surrogate \\u\(Self.hex(UInt32(unit), digits: 4)): a low surrogate (DC00–DFFF) must follow a \\u escape of a high one"
                )
            }
        default:
            position += 1
            throw JSONSyntaxError(
                offset: start,
                "an invalid escape: '\\' followed by \(describeByte()); JSON's escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"
            )
        }
    }

    /// The code unit of the `\uXXXX` escape at `start` (its backslash).
    private func hexEscape(at start: Int) throws(JSONSyntaxError) -> UInt16 {
        guard start + 6 <= end, bytes[start + 2..<start + 6].allSatisfy({ JSONStringText.hexDigit($0) != nil }) else {
            throw JSONSyntaxError(offset: start, "\\u must be followed by four hex digits")
        }
        return JSONStringText.hexValue(bytes, at: start + 2)
    }

    /// One character of two to four bytes, checked as the Unicode standard's
    /// table 3-7 of well-formed UTF-8 says.
    mutating func multibyteCharacter() throws(JSONSyntaxError) {
        let lead = bytes[position]
        var count = 0
        var secondLow: UInt8 = 0x80
        var secondHigh: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 1
        case 0xE0: (count, secondLow) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: count = 2
        case 0xED: (count, secondHigh) = (2, 0x9F)
        case 0xF0: (count, secondLow) = (3, 0x90)
        case 0xF1...0xF3: count = 3
        case 0xF4: (count, secondHigh) = (3, 0x8F)
        case 0x80...0xBF: throw invalidUTF8("a continuation byte without a lead byte", length: 1)
        case 0xC0, 0xC1: throw invalidUTF8("an overlong encoding; 0xC0 and 0xC1 never begin a character", length: 2)
        default: throw invalidUTF8("byte 0x\(Self.hex(UInt32(lead), digits: 2)), which never occurs in UTF-8", length: 1)
        }
        for index in 1...count {
            guard position + index < end else {
                throw invalidUTF8("a character cut short by the end of the line", length: index)
            }
            let byte = bytes[position + index]
            let (low, high) = index == 1 ? (secondLow, secondHigh) : (0x80, 0xBF)
            guard byte >= low && byte <= high else {
                if index == 1 && byte >= 0x80 && byte <= 0xBF {
                    switch lead {
                    case 0xE0, 0xF0: throw invalidUTF8("an overlong encoding", length: count + 1)
                    case 0xED: throw invalidUTF8("a UTF-16 surrogate (U+D800–U+DFFF) encoded in UTF-8", length: count + 1)
                    default: throw invalidUTF8("a code point beyond U+10FFFF", length: count + 1)
                    }
                }
                throw invalidUTF8("a character cut short: byte \(position + index) is not a continuation byte", length: index + 1)
            }
        }
        position += count + 1
    }

    private func invalidUTF8(_ problem: String, length: Int) -> JSONSyntaxError {
        let shown = bytes[position..<min(end, position + length)].map { Self.hex(UInt32($0), digits: 2) }
        return JSONSyntaxError(offset: position, "invalid UTF-8 (\(shown.joined(separator: " "))): \(problem)")
    }

    // MARK: Whitespace (what went wrong: JSONReader+Errors.swift)

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipWhitespace() {
        while position < end, JSONScanner.isWhitespace(bytes[position]) { position += 1 }
    }
}
