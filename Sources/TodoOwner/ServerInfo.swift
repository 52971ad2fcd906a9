import Foundation

/// What `server.status` reports besides the owner's state.
public struct ServerInfo: Sendable {
    public var version: String
    public var dataFile: String
    public var startedAt: Date
    /// The zone a due date-time without an offset is read in.
    public var timeZone: TimeZone
    public init(version: String, dataFile: String, startedAt: Date = Date(), timeZone: TimeZone = .current) {
        self.version = version
        self.dataFile = dataFile
        self.startedAt = startedAt
        self.timeZone = timeZone
    }
}
