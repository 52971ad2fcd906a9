/// A key the live watch screen acts on.
enum Key: Equatable {
    case up, down, toggle, filter, sort, undo, redo, quit

    /// The keys in a chunk read from a raw terminal (escape sequences for the
    /// arrows); bytes that mean nothing here are skipped.
    static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:  // ESC [ A and ESC [ B are the arrows; other sequences are skipped
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "[") else { continue }
                let final = bytes[index + 1]
                index += 2
                if final == UInt8(ascii: "A") { keys.append(.up) }
                if final == UInt8(ascii: "B") { keys.append(.down) }
            case 0x03, UInt8(ascii: "q"): keys.append(.quit)  // Ctrl-C, q
            case UInt8(ascii: "k"): keys.append(.up)
            case UInt8(ascii: "j"): keys.append(.down)
            case UInt8(ascii: " "), UInt8(ascii: "x"), 0x0D: keys.append(.toggle)
            case UInt8(ascii: "f"): keys.append(.filter)
            case UInt8(ascii: "s"): keys.append(.sort)
            case UInt8(ascii: "u"): keys.append(.undo)
            case UInt8(ascii: "r"): keys.append(.redo)
            default: continue
            }
        }
        return keys
    }

    /// The keys as the screen's help line names them.
    static let help = "↑/↓ select · space toggle · f filter · s sort · u undo · r redo · q quit"
}
