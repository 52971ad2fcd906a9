/// One iCalendar content line (RFC 5545 §3.1), unfolded:
/// `NAME;PARAM=VALUE;…:VALUE`, with where it starts in the file.
public struct ContentLine: Hashable, Sendable {
    public var name: String
    public var parameters: [String: String]
    public var value: String
    /// The file's line number (1-based) the content line starts on.
    public var lineNumber: Int
    /// The whole line as it came, unfolded: what an import keeps of a
    /// property todod does not model (`ForeignFields.icalendar`).
    public var text: String

    /// The content lines of `text`: lines joined where a line break is
    /// followed by a space or tab (folding), split at the first colon outside
    /// quotes. A line without one is an `ImportProblem` naming its number.
    ///
    /// The space or tab is found as a byte: a fold may come before a
    /// combining mark (an "é" written as e and U+0301), and Swift reads the
    /// space and the mark as one `Character`.
    public static func parse(_ text: String) throws(ImportProblem) -> [ContentLine] {
        var lines: [ContentLine] = []
        var current = ""
        var currentStart = 0
        func finish() throws(ImportProblem) {
            defer { current = "" }
            guard !current.isEmpty else { return }
            lines.append(try ContentLine(current, lineNumber: currentStart))
        }
        for (index, line) in textLines(text).enumerated() {
            let physical = withoutControlCharacters(line)
            if let first = physical.utf8.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                current += Substring(physical.utf8.dropFirst())
            } else {
                try finish()
                current = String(physical)
                currentStart = index + 1
            }
        }
        try finish()
        return lines
    }

    /// `line` without the control characters (but tab) RFC 5545 does not
    /// allow, removed before anything is read: a line kept as it came must
    /// not become, without them, a line of another name (`EN\0D:VTODO`), nor
    /// carry a bare CR that a reader takes for a line break, nor a NUL,
    /// which PostgreSQL cannot store.
    private static func withoutControlCharacters(_ line: Substring) -> Substring {
        func control(_ scalar: Unicode.Scalar) -> Bool { (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F }
        guard line.unicodeScalars.contains(where: control) else { return line }
        return Substring(String(String.UnicodeScalarView(line.unicodeScalars.filter { !control($0) })))
    }

    private init(_ text: String, lineNumber: Int) throws(ImportProblem) {
        self.lineNumber = lineNumber
        self.text = text
        var inQuotes = false
        var separators: [String.Index] = []
        var colon: String.Index?
        for index in text.indices {
            switch text[index] {
            case "\"": inQuotes.toggle()
            case ";" where !inQuotes: separators.append(index)
            case ":" where !inQuotes: colon = index
            default: break
            }
            if colon != nil { break }
        }
        guard let colon else {
            throw ImportProblem(location: "line \(lineNumber)", message: "not an iCalendar line (NAME:VALUE): \(text.prefix(60))")
        }
        let head = text[..<colon]
        let parts = head.split(separator: ";", omittingEmptySubsequences: false)
        name = parts[0].uppercased()
        var parameters: [String: String] = [:]
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            var value = String(pair[1])
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            parameters[pair[0].uppercased()] = value
        }
        self.parameters = parameters
        value = String(text[text.index(after: colon)...])
    }

    /// A TEXT value with its escapes (`\\`, `\;`, `\,`, `\n`) read.
    public static func unescaped(_ text: some StringProtocol) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// A TEXT value's list items (CATEGORIES): split at commas not escaped.
    public static func unescapedList(_ text: String) -> [String] {
        var items: [String] = []
        var current = ""
        var escaping = false
        for character in text {
            if escaping {
                current.append("\\")
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                items.append(unescaped(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(unescaped(current))
        return items.filter { !$0.isEmpty }
    }

    public static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// `line` folded to lines of at most 75 octets (RFC 5545 §3.1), never
    /// inside a character's UTF-8, each ended by CRLF. Folded by Unicode
    /// scalars, not `Character`s: one Character (a letter with many marks,
    /// a family emoji) may be longer than a line, and a fold before a mark
    /// is unfolded as any other (`parse`).
    public static func folded(_ line: String) -> String {
        var result = String.UnicodeScalarView()
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = UTF8.width(scalar)
            if octets + size > 75 {
                result.append(contentsOf: "\r\n ".unicodeScalars)
                octets = 1
            }
            result.append(scalar)
            octets += size
        }
        return String(result) + "\r\n"
    }
}
