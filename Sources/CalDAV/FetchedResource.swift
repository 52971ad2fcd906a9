/// One calendar object as read from the server.
public struct FetchedResource: Sendable, Equatable {
    /// The member's path, as `HrefPath` spells it.
    public let href: String
    public let etag: String
    /// The iCalendar text. From a multiget it comes out of XML, whose parsers
    /// turn CRLF line ends into LF: read it with a parser that accepts both.
    public let calendarData: String

    public init(href: String, etag: String, calendarData: String) {
        self.href = href
        self.etag = etag
        self.calendarData = calendarData
    }
}
