import FoundationEssentials

/// One line of a Taskwarrior 2.x data file, in the format Taskwarrior calls
/// FF4 (written since 1.7.1, 2009): `[name:"value" name:"value" …]`, one
/// task per line, read as Taskwarrior 2.6 reads it and written out as the
/// JSON object `task export` prints for it.
///
/// Reading follows 2.6's `Task::parse` with libshared's `Pig::getQuoted` and
/// `json::decode`: a value ends at the first `"` not escaped by an odd run
/// of backslashes; its JSON escapes are undone (`\"`, `\\`, `\/`, `\b`, `\f`,
/// `\n`, `\r`, `\t`, `\uXXXX`), and any other backslash is kept, as
/// Taskwarrior keeps it; then `&open;` and `&close;` become `[` and `]`
/// (`Task::decode`: the line's own brackets are why Taskwarrior writes them
/// so). `modification` is read as `modified` (renamed in 2.4).
///
/// Writing follows `Task::composeJSON`: the attributes in name order, those
/// with a date converted from seconds since 1970 to `20240115T093000Z`,
/// then `annotations`, `tags` and `depends` as arrays. Since 2.6 a tag is
/// also stored as `tags_NAME:"x"` and a dependency as `dep_UUID:"x"`; both
/// forms are read, as 2.6 does, so data from 2.5 and before reads the same.
struct TaskwarriorFF4Line {
    /// Name → value; a name given twice keeps its last value, as in
    /// Taskwarrior's map. Values are decoded.
    private(set) var attributes: [String: String] = [:]

    /// Why a line cannot be read; the caller says which file and line.
    struct Unreadable: Error {
        var message: String
    }

    init(_ line: ArraySlice<UInt8>) throws(Unreadable) {
        var index = line.startIndex
        let end = line.endIndex
        guard index < end, line[index] == Byte.openBracket else {
            throw Unreadable(
                message: line.first == UInt8(ascii: "{")
                    ? "a JSON task, not a Taskwarrior 2.x task line ([name:\"value\" …])"
                    : "not a Taskwarrior 2.x task line ([name:\"value\" …]); the formats from before Taskwarrior 1.7.1 are not read")
        }
        index += 1
        while true {
            while index < end, line[index] == Byte.space { index += 1 }
            guard index < end else { throw Unreadable(message: "the line ends without its closing ]") }
            if line[index] == Byte.closeBracket {
                index += 1
                break
            }
            let nameStart = index
            while index < end, ![Byte.colon, Byte.space, Byte.quote, Byte.closeBracket].contains(line[index]) { index += 1 }
            let name = String(decoding: line[nameStart..<index], as: UTF8.self)
            guard index < end, line[index] == Byte.colon, !name.isEmpty else {
                throw Unreadable(message: "expected name:\"value\" at \"\(Self.excerpt(line[nameStart...]))\"")
            }
            index += 1
            guard index < end, line[index] == Byte.quote else {
                throw Unreadable(message: "the value of \(name) is not in double quotes")
            }
            index += 1
            let valueStart = index
            var isPlain = true  // no escapes, no &open; or &close;: the bytes are the value
            while index < end, line[index] != Byte.quote {
                if line[index] == Byte.backslash {
                    isPlain = false
                    index += 1  // the escaped byte cannot end the value
                } else if line[index] == Byte.ampersand {
                    isPlain = false
                }
                index += 1
            }
            guard index < end else { throw Unreadable(message: "the value of \(name) has no closing quote") }
            let raw = line[valueStart..<index]
            index += 1
            attributes[name == "modification" ? "modified" : name] =
                isPlain ? String(decoding: raw, as: UTF8.self) : Self.decoded(raw)
        }
        while index < end, line[index] == Byte.space || line[index] == Byte.tab || line[index] == Byte.carriageReturn {
            index += 1
        }
        guard index == end else { throw Unreadable(message: "\"\(Self.excerpt(line[index...]))\" after the closing ]") }
    }

    /// The task as `task export` (2.6) writes it, `id` first. Not written:
    /// `urgency`, which Taskwarrior computes from the coefficients in its rc.
    /// `userTypes` are the rc's types of user-defined attributes ("date",
    /// "numeric"); a value that is not of its type is written as stored.
    func exportJSON(id: Int, userTypes: [String: String], into json: inout [UInt8]) throws(Unreadable) {
        json.append(contentsOf: #"{"id":\#(id)"#.utf8)
        var annotations: [(key: String, text: String)] = []
        var tags = Set(attributes["tags"].map(Self.commaList) ?? [])
        var depends = Set(attributes["depends"].map(Self.commaList) ?? [])
        for name in attributes.keys.sorted(by: Self.byteOrder) {
            let value = attributes[name] ?? ""
            if name.hasPrefix("annotation_") {
                if !value.isEmpty { annotations.append((name, value)) }
                continue
            }
            if name.hasPrefix("tags_") {
                tags.insert(String(name.dropFirst(5)))
                continue
            }
            if name.hasPrefix("dep_") {
                depends.insert(String(name.dropFirst(4)))
                continue
            }
            // Written below or not at all; an empty value is never written.
            if ["tags", "depends", "id", "urgency"].contains(name) || value.isEmpty { continue }
            json.append(contentsOf: ",\"".utf8)
            Self.appendEscaped(name, to: &json)
            json.append(contentsOf: "\":".utf8)
            if Self.dateAttributes.contains(name) {
                let date = try Self.compactDate(value, of: name)
                json.append(contentsOf: "\"\(date)\"".utf8)
            } else if userTypes[name] == "date", let date = try? Self.compactDate(value, of: name) {
                json.append(contentsOf: "\"\(date)\"".utf8)
            } else if Self.numberAttributes.contains(name) || userTypes[name] == "numeric", Self.isNumber(value) {
                json.append(contentsOf: value.utf8)
            } else {
                json.append(Byte.quote)
                Self.appendEscaped(value, to: &json)
                json.append(Byte.quote)
            }
        }
        if !annotations.isEmpty {
            json.append(contentsOf: #","annotations":["#.utf8)
            for (number, annotation) in annotations.enumerated() {
                let entry = try Self.compactDate(String(annotation.key.dropFirst(11)), of: annotation.key)
                json.append(contentsOf: #"\#(number == 0 ? "" : ","){"entry":"\#(entry)","description":""#.utf8)
                Self.appendEscaped(annotation.text, to: &json)
                json.append(contentsOf: "\"}".utf8)
            }
            json.append(Byte.closeBracket)
        }
        for (name, values) in [("tags", tags), ("depends", depends)] where !values.isEmpty {
            json.append(contentsOf: ",\"\(name)\":[".utf8)
            for (number, value) in values.sorted(by: Self.byteOrder).enumerated() {
                json.append(contentsOf: (number == 0 ? "\"" : ",\"").utf8)
                Self.appendEscaped(value, to: &json)
                json.append(Byte.quote)
            }
            json.append(Byte.closeBracket)
        }
        json.append(UInt8(ascii: "}"))
    }

    /// The attributes 2.6 keeps as dates (its `ColumnTypeDate` columns).
    /// A user-defined attribute's type is in the taskrc, not the data.
    static let dateAttributes: Set<String> = ["due", "end", "entry", "modified", "scheduled", "start", "until", "wait"]
    /// Numbers `task export` writes without quotes (`imask`, and `last` on a recurring template).
    static let numberAttributes: Set<String> = ["imask", "last"]

    /// `20240115T093000Z` from seconds since 1970, in years 0 to 9999.
    private static func compactDate(_ value: String, of name: String) throws(Unreadable) -> String {
        guard let seconds = Int(value), (-62_167_219_200...253_402_300_799).contains(seconds) else {
            throw Unreadable(message: "\(name) \"\(excerpt(value.utf8[...]))\" is not a Taskwarrior date (seconds since 1970)")
        }
        return InterchangeDates.compactUTC(Date(timeIntervalSince1970: Double(seconds)))
    }

    private static func isNumber(_ value: String) -> Bool {
        value.utf8.allSatisfy { (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
            && Double(value) != nil
    }

    private static func commaList(_ text: String) -> [String] {
        text.split(separator: ",").map(String.init)
    }

    /// std::map's order, which `task export` writes in: by bytes.
    private static func byteOrder(_ first: String, _ second: String) -> Bool {
        first.utf8.lexicographicallyPrecedes(second.utf8)
    }

    /// A value with Taskwarrior's escapes undone (see the type's comment).
    static func decoded(_ raw: ArraySlice<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == Byte.backslash, index + 1 < raw.endIndex else {
                bytes.append(byte)
                index += 1
                continue
            }
            let escaped = raw[index + 1]
            index += 2
            switch escaped {
            case Byte.quote, Byte.backslash, UInt8(ascii: "/"): bytes.append(escaped)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(Byte.tab)
            case UInt8(ascii: "u"):
                guard let (scalar, length) = unicodeEscape(raw[index...]) else {
                    bytes += [Byte.backslash, escaped]
                    continue
                }
                bytes += Array(String(Character(scalar)).utf8)
                index += length
            default: bytes += [Byte.backslash, escaped]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
            .replacing("&open;", with: "[").replacing("&close;", with: "]")
    }

    /// The character of `XXXX` after `\u` (joining a surrogate pair written
    /// as two escapes; a lone surrogate is U+FFFD) and how many bytes it took.
    private static func unicodeEscape(_ rest: ArraySlice<UInt8>) -> (Unicode.Scalar, Int)? {
        func hex(_ slice: ArraySlice<UInt8>) -> UInt32? {
            guard slice.count == 4 else { return nil }
            var value: UInt32 = 0
            for byte in slice {
                guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        guard let first = hex(rest.prefix(4)) else { return nil }
        if (0xD800...0xDBFF).contains(first), rest.dropFirst(4).starts(with: Array(#"\u"#.utf8)),
            let second = hex(rest.dropFirst(6).prefix(4)), (0xDC00...0xDFFF).contains(second),
            let scalar = Unicode.Scalar(0x10000 + (first - 0xD800) << 10 + (second - 0xDC00))
        {
            return (scalar, 10)
        }
        return (Unicode.Scalar(first) ?? "\u{FFFD}", 4)
    }

    /// `text` as the inside of a JSON string.
    private static func appendEscaped(_ text: String, to json: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case Byte.quote, Byte.backslash: json += [Byte.backslash, byte]
            case 0x0A: json.append(contentsOf: #"\n"#.utf8)
            case Byte.tab: json.append(contentsOf: #"\t"#.utf8)
            case 0x0D: json.append(contentsOf: #"\r"#.utf8)
            case 0..<0x20: json += Array(#"\u00"#.utf8) + [hexDigit(byte >> 4), hexDigit(byte & 0xF)]
            default: json.append(byte)
            }
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : UInt8(ascii: "a") + value - 10
    }

    /// The start of what could not be read, short enough for a message.
    private static func excerpt(_ bytes: some Collection<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.count > 30 ? text.prefix(30) + "…" : text
    }

    private enum Byte {
        static let openBracket = UInt8(ascii: "[")
        static let closeBracket = UInt8(ascii: "]")
        static let colon = UInt8(ascii: ":")
        static let quote = UInt8(ascii: "\"")
        static let backslash = UInt8(ascii: "\\")
        static let ampersand = UInt8(ascii: "&")
        static let space = UInt8(ascii: " ")
        static let tab = UInt8(ascii: "\t")
        static let carriageReturn = UInt8(ascii: "\r")
    }
}
