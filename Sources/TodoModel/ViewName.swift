/// The rules for a named view's name: short, one word, typeable after `@`
/// on a command line (`todoctl ls @work`).
public enum ViewName {
    public static let maximumLength = 64

    /// Why `name` cannot name a view, or nil when it can.
    public static func problem(with name: String) -> String? {
        guard !name.isEmpty else { return "a view name cannot be empty" }
        guard name.count <= maximumLength else { return "a view name has at most \(maximumLength) characters" }
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || ("0"..."9").contains(first) else {
            return "a view name starts with a letter or digit"
        }
        let allowed = name.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
        return allowed ? nil : "a view name has only letters, digits, \"-\", \"_\" and \".\""
    }
}
