/// A test server that could not be set up, started or used, with the reason
/// and, where there is one, the end of the server's log.
public struct CalDAVTestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
