/// The lines of a text, split at LF with a CR before it dropped. Not
/// `split(separator: "\n")`: Swift reads CR LF as one `Character`, so files
/// written on Windows (and iCalendar, which requires CR LF) would be one line.
func textLines(_ text: String) -> [Substring] {
    text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
        let line = Substring(line)
        return line.utf8.last == UInt8(ascii: "\r") ? Substring(line.utf8.dropLast()) : line
    }
}
