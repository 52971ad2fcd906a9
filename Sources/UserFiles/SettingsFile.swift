/// The `key = value` files todod's programs read (todod.conf, web.conf,
/// sync.conf), read by one set of rules, so that a line that works in one
/// works in the others and every mistake is named the same way:
///
/// - lines end at `\n`; a `\r` before it (a file saved on Windows) is dropped;
/// - a `#` at the start of a line, or after a space or tab, starts a comment
///   to the end of the line (a `#` inside a value, as in a URL's fragment, is
///   part of it);
/// - blank lines are skipped; every other line is `key = value`, blanks
///   around each trimmed, the value possibly empty, the key not.
///
/// What each key means, and which keys there are, is the reader's: it gets
/// the lines in order, each with its place for an error (`SettingsLine.problem`).
public enum SettingsFile {
    /// The settings lines of `text`, the file at `path`.
    public static func lines(of text: String, path: String) throws(SettingsFileError) -> [SettingsLine] {
        var lines: [SettingsLine] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let place = "\(path) line \(index + 1)"
            let content = trimmed(withoutComment(raw.hasSuffix("\r") ? raw.dropLast() : raw))
            if content.isEmpty { continue }
            guard let equals = content.firstIndex(of: "="), !trimmed(content[..<equals]).isEmpty else {
                throw SettingsFileError("\(place): expected 'key = value', got '\(content)'")
            }
            lines.append(
                SettingsLine(
                    key: String(trimmed(content[..<equals])), value: String(trimmed(content[content.index(after: equals)...])),
                    place: place))
        }
        return lines
    }

    private static func isBlank(_ character: Character) -> Bool { character == " " || character == "\t" }

    private static func withoutComment(_ line: Substring) -> Substring {
        var previous: Character?
        for index in line.indices {
            if line[index] == "#", previous.map(isBlank) ?? true { return line[..<index] }
            previous = line[index]
        }
        return line
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let start = text.firstIndex { !isBlank($0) } ?? text.endIndex
        let end = text.lastIndex { !isBlank($0) }.map(text.index(after:)) ?? start
        return text[start..<max(start, end)]
    }
}

/// One `key = value` line of a settings file.
public struct SettingsLine: Sendable, Equatable {
    public var key: String
    public var value: String
    /// Where the line is, as errors name it: `/home/ann/.config/todod/web.conf line 3`.
    public var place: String

    public init(key: String, value: String, place: String) {
        self.key = key
        self.value = value
        self.place = place
    }

    /// `message` about this line, in the one format every settings error has:
    /// `FILE line N: message`.
    public func problem(_ message: String) -> String { "\(place): \(message)" }
}

/// A settings file whose text is not `key = value` lines.
public struct SettingsFileError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
