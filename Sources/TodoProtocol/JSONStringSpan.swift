/// A string literal's content: the bytes between its quotes.
struct JSONStringSpan {
    var content: Range<Int>
    /// Without escapes, the content is the string's UTF-8 as it is.
    var hasEscapes: Bool
}
