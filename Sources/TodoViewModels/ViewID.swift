/// Names a list view instance.
public enum ViewID: Hashable, Sendable {
    /// A named view every client can open; its filter and sort are shared and persisted.
    case shared(String)
    /// One client's own view, with its own filter and sort; gone when the client is.
    case own(Int)

    public static let main = ViewID.shared("main")
}
