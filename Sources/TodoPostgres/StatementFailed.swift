/// The server answered a statement with an error (a full disk, a table
/// owned by another role): its message, which PSQLError's own description
/// leaves out ("Generic description to prevent accidental leakage of
/// sensitive data").
public struct StatementFailed: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { "the PostgreSQL server refused it: \(reason)" }
}
