import FoundationEssentials

/// The time source and time zone view models word dates with. Injected, so
/// tests set the time and the zone and get exact texts.
public struct TodoClock: Sendable {
    public var now: @Sendable () -> Date
    public var timeZone: TimeZone

    public init(timeZone: TimeZone = .current, now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
        self.timeZone = timeZone
    }

    /// Now, to the millisecond: the precision the store keeps, so a state
    /// read back after a restart equals the state in memory.
    func currentTime() -> Date {
        Date(timeIntervalSince1970: (now().timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
