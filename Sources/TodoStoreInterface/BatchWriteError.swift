/// A batch was not stored whole: the first `stored` writes were (and are
/// committed), the rest were not, because of `underlying`.
public struct BatchWriteError: Error, CustomStringConvertible {
    public var stored: Int
    public var underlying: any Error
    public init(stored: Int, underlying: any Error) {
        self.stored = stored
        self.underlying = underlying
    }
    public var description: String { String(describing: underlying) }
}
