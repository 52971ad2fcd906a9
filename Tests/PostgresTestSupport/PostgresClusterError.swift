/// Why a test cluster could not do what was asked, in words a test failure can show as is:
/// what failed, what the program said, and the end of the server's log when it matters.
public struct PostgresClusterError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
