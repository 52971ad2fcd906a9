/// One row of the list, ready to display.
///
/// Rows are what a client draws; they carry the id a user types back
/// (`todoctl done 3`) and nothing the client would have to interpret.
public struct TodoRow: Codable, Hashable, Sendable {
    public var id: Int64
    public var title: String
    public var done: Bool

    public init(id: Int64, title: String, done: Bool) {
        self.id = id
        self.title = title
        self.done = done
    }
}
