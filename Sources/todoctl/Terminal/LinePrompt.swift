import TodoClient

/// A line of text typed at the bottom of the live screen: a query after `/`,
/// a new item after `a`, a title after `e`, shorthand after `m`.
///
/// It reads the raw bytes a terminal sends in raw mode: printable UTF-8
/// goes in, Backspace (DEL or ^H) takes the last character out, Enter
/// submits, Escape or Ctrl-C cancels. Anything else (arrows, other control
/// keys) is ignored.
struct LinePrompt: Equatable {
    enum Purpose: Equatable {
        /// A query for the watched view.
        case query
        case add
        /// A new title for the item with this id.
        case edit(Int64)
        /// Shorthand changes for the item with this id.
        case modify(Int64)
    }

    enum Outcome: Equatable {
        case editing
        case submitted(String)
        case cancelled
    }

    let purpose: Purpose
    /// What the prompt says before the text: "query for view main (every terminal): ".
    let label: String
    private(set) var text: String

    init(_ purpose: Purpose, label: String, text: String = "") {
        self.purpose = purpose
        self.label = label
        self.text = text
    }

    /// Takes one chunk of input.
    mutating func receive(_ bytes: [UInt8]) -> Outcome {
        var printable: [UInt8] = []
        var index = 0
        func flush() {
            text += String(decoding: printable, as: UTF8.self)
            printable.removeAll()
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x0D, 0x0A:
                flush()
                return .submitted(text)
            case 0x03:
                return .cancelled
            case 0x1B:
                // A lone Escape cancels; an escape sequence (an arrow key) is skipped.
                guard index < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O") else {
                    return .cancelled
                }
                index += 1
                while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                index += 1
            case 0x7F, 0x08:
                flush()
                if !text.isEmpty { text.removeLast() }
            case 0x00..<0x20:
                continue
            default:
                printable.append(byte)
            }
        }
        flush()
        return .editing
    }

    /// The prompt line as drawn, with a block for the cursor.
    var line: String { label + text + "█" }
}
