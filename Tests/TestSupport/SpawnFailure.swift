/// A child that could not be started, or a pipe for it that could not be
/// made, with the system's reason. Callers that document an error type of
/// their own (`PostgresClusterError`, the end-to-end tests' `TestFailure`)
/// rethrow it as theirs with the same words.
public struct SpawnFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
