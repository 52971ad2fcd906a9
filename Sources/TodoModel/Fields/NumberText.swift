/// Numbers of numeric fields as people and other programs write them, one
/// rule for shorthand, queries, imports and every place a number is written,
/// so that whatever todod writes reads back as the same number.
public enum NumberText {
    /// `3`, `-2.5`, `1e+20` (as Swift writes large doubles); not `inf`,
    /// `nan` or hexadecimal, which `Double` would read.
    public static func number(_ text: some StringProtocol) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || Array("+-.eE".utf8).contains($0) }),
            let number = Double(String(text)), number.isFinite
        else { return nil }
        return number
    }

    /// The text `number(_:)` reads back as `number`: `3` for a whole number,
    /// `2.5`, or the shortest text Swift has for it (`1e+20`).
    public static func text(of number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }
}
