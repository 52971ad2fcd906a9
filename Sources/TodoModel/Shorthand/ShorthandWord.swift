/// A word of add/modify text as it was typed, and where it starts (a
/// 0-based offset in characters, as `ShorthandError.position`). A change
/// that reads well but cannot be made (`depends:99` with no item 99,
/// `due:someday`) is refused naming its word, so the error points at it.
public struct ShorthandWord: Hashable, Sendable {
    public var text: String
    public var position: Int

    public init(_ text: String, at position: Int) {
        self.text = text
        self.position = position
    }
}
