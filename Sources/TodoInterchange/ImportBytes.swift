import TodoModel

extension InterchangeFormat {
    /// A file's bytes as the text to import (`read`, `todo.import`), nil when
    /// they are not UTF-8.
    ///
    /// RFC 5545 §3.1 lets an iCalendar writer fold a line at any octet, and
    /// some fold inside a character ("é", C3 A9, as C3 CRLF SPACE A9), which
    /// is not UTF-8 until the line is unfolded. So an iCalendar file's folds
    /// that split a character are moved to after it, as bytes, before the
    /// text is decoded: what the folds join is the same, and the file keeps
    /// its lines, so a problem's "line 12" is still the file's line 12. What
    /// is not UTF-8 even then is refused. A client sending `todo.import` does
    /// this (or unfolds) before it makes the text a string.
    public func text(decoding bytes: some Collection<UInt8>) -> String? {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        guard self == .ical else { return nil }
        return String(validating: Self.foldsMovedOutOfCharacters(Array(bytes)), as: UTF8.self)
    }

    /// `bytes` with every fold (CR LF or LF, then a space or tab) that is
    /// followed by a UTF-8 continuation byte, so splits a character, moved
    /// to where that character's bytes end.
    static func foldsMovedOutOfCharacters(_ bytes: [UInt8]) -> [UInt8] {
        func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
        func foldLength(at index: Int) -> Int {
            let lineFeed = bytes[index] == UInt8(ascii: "\r") ? index + 1 : index
            guard lineFeed + 1 < bytes.count, bytes[lineFeed] == UInt8(ascii: "\n"),
                bytes[lineFeed + 1] == UInt8(ascii: " ") || bytes[lineFeed + 1] == UInt8(ascii: "\t")
            else { return 0 }
            return lineFeed + 2 - index
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var held: [UInt8] = []  // folds inside the character being copied
        var index = 0
        while index < bytes.count {
            let fold = foldLength(at: index)
            if fold > 0, index + fold < bytes.count, isContinuation(bytes[index + fold]) {
                held += bytes[index..<index + fold]
                index += fold
                continue
            }
            if !held.isEmpty, !isContinuation(bytes[index]) {
                result += held
                held = []
            }
            result.append(bytes[index])
            index += 1
        }
        return result + held
    }
}
