/// How many items not done have one tag or project: what status bars show
/// per tag and per project (`tagCounts`, `projectCounts`).
public struct NameCount: Codable, Hashable, Sendable, WireTyped {
    public static let wireType = WireType.named("NameCount")

    /// A tag in lower case, or a project as written.
    public var name: String
    public var count: Int

    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}
