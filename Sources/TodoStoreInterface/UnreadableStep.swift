/// An undo step a list being copied cannot read back (`UndoStep.readFailure`):
/// copying the list without it would lose it, so `todod migrate` copies
/// nothing, into SQLite or PostgreSQL alike.
public struct UnreadableStep: Error, CustomStringConvertible {
    public var step: String
    public var reason: String

    public init(step: String, reason: String) {
        self.step = step
        self.reason = reason
    }

    public var description: String { "the undo step “\(step)” cannot be read back (\(reason)), so nothing was copied" }
}
