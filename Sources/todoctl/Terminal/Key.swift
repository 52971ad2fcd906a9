import TodoClient

/// A key the live watch screen acts on.
enum Key: Equatable {
    case up, down, pageUp, pageDown, first, last, toggle, filter, sort, undo, redo, quit
    /// Keys that open a prompt: `/` a query, `a` a new item, `e` the selected
    /// item's title, `m` shorthand changes to it.
    case search, add, edit, modify

    /// The keys in a chunk read from a raw terminal; bytes that mean nothing
    /// here are skipped.
    static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let (key, length) = next(in: rest)
            if let key { keys.append(key) }
            rest = rest.dropFirst(length)
        }
        return keys
    }

    /// The first key in `bytes` (nil for bytes that mean nothing here) and
    /// how many bytes it takes: the screen reads keys one at a time, so that
    /// the bytes after a key that opens a prompt are typed into the prompt.
    static func next(in bytes: ArraySlice<UInt8>) -> (key: Key?, length: Int) {
        guard let byte = bytes.first else { return (nil, 0) }
        switch byte {
        case 0x1B:
            guard let (key, length) = escapeSequence(bytes.dropFirst()) else { return (nil, 1) }
            return (key, 1 + length)
        case 0x03, UInt8(ascii: "q"): return (.quit, 1)  // Ctrl-C, q
        case UInt8(ascii: "k"): return (.up, 1)
        case UInt8(ascii: "j"): return (.down, 1)
        case UInt8(ascii: "g"): return (.first, 1)
        case UInt8(ascii: "G"): return (.last, 1)
        case UInt8(ascii: " "), UInt8(ascii: "x"), 0x0D: return (.toggle, 1)
        case UInt8(ascii: "f"): return (.filter, 1)
        case UInt8(ascii: "s"): return (.sort, 1)
        case UInt8(ascii: "u"): return (.undo, 1)
        case UInt8(ascii: "r"): return (.redo, 1)
        case UInt8(ascii: "/"): return (.search, 1)
        case UInt8(ascii: "a"): return (.add, 1)
        case UInt8(ascii: "e"): return (.edit, 1)
        case UInt8(ascii: "m"): return (.modify, 1)
        default: return (nil, 1)
        }
    }

    /// The key an escape sequence names (after its ESC), and how many bytes
    /// it takes; nil when no sequence follows (a lone ESC, or Alt and a key).
    ///
    /// Terminals send the same key in more than one way: arrows, Home and End
    /// as `ESC [ A` or, in application mode, `ESC O A`; Home and End also as
    /// `ESC [ 1 ~`/`ESC [ 4 ~` (or 7/8, rxvt); PgUp and PgDn as `ESC [ 5 ~` and
    /// `ESC [ 6 ~`. A sequence with modifiers (`ESC [ 1 ; 5 A`) is the same key.
    /// Whole sequences are consumed, so the bytes of one the screen does not
    /// use (F5 is `ESC [ 1 5 ~`) are never read as keys.
    private static func escapeSequence(_ bytes: ArraySlice<UInt8>) -> (key: Key?, length: Int)? {
        guard let introducer = bytes.first else { return nil }
        let body = bytes.dropFirst()
        switch introducer {
        case UInt8(ascii: "O"):  // SS3: one final byte
            guard let final = body.first else { return nil }
            return (finalKey(final), 2)
        case UInt8(ascii: "["):  // CSI: parameters (digits, ;), then one final byte
            guard let end = body.firstIndex(where: { (0x40...0x7E).contains($0) }) else { return nil }
            let parameters = String(decoding: body[..<end], as: UTF8.self).split(separator: ";")
            let key =
                bytes[end] == UInt8(ascii: "~")
                ? tildeKey(parameters.first.map(String.init) ?? "") : finalKey(bytes[end])
            return (key, end - bytes.startIndex + 1)
        default:
            return nil
        }
    }

    /// The key an `ESC [ A`–style (or `ESC O A`) final byte names.
    private static func finalKey(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "H"): .first
        case UInt8(ascii: "F"): .last
        default: nil
        }
    }

    /// The key an `ESC [ n ~` sequence names by its number.
    private static func tildeKey(_ number: String) -> Key? {
        switch number {
        case "1", "7": .first
        case "4", "8": .last
        case "5": .pageUp
        case "6": .pageDown
        default: nil
        }
    }

    /// The keys as the screen's help line names them, one entry a key.
    static let help = [
        "↑/↓ select", "PgUp/PgDn page", "g/G first/last", "space toggle", "a add", "e edit", "m modify", "/ query",
        "f filter", "s sort", "u undo", "r redo", "q quit",
    ]

    /// The help entries packed into as few lines of `columns` as they fit in,
    /// so that no key, `q quit` least of all, is cut off a narrow terminal;
    /// but in no more than `maximum` lines, the last holding all the rest (to
    /// be cut), so that on a tiny terminal the help does not crowd out the list.
    static func helpLines(fitting columns: Int, atMost maximum: Int) -> [String] {
        let separator = " · "
        var lines: [String] = []
        for entry in help {
            if let last = lines.last,
                lines.count == maximum || DisplayWidth.columns(of: last + separator + entry) <= columns
            {
                lines[lines.count - 1] = last + separator + entry
            } else {
                lines.append(entry)
            }
        }
        return lines
    }
}
