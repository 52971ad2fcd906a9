/// An XML element's identity: namespace URI and local name. Prefixes are the
/// writer's choice and mean nothing; this pair is what an element is.
struct XMLName: Hashable, Sendable, CustomStringConvertible {
    let namespace: String
    let local: String

    init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    var description: String { "{\(namespace)}\(local)" }
}

/// The namespaces of the elements this client reads and writes.
enum XMLNamespace {
    static let dav = "DAV:"
    static let calDAV = "urn:ietf:params:xml:ns:caldav"
    /// Apple's, for getctag: older than sync tokens and still widely served.
    static let calendarServer = "http://calendarserver.org/ns/"
}

/// The elements this client looks for in responses.
enum DAVName {
    static let multistatus = XMLName(XMLNamespace.dav, "multistatus")
    static let response = XMLName(XMLNamespace.dav, "response")
    static let href = XMLName(XMLNamespace.dav, "href")
    static let status = XMLName(XMLNamespace.dav, "status")
    static let propstat = XMLName(XMLNamespace.dav, "propstat")
    static let prop = XMLName(XMLNamespace.dav, "prop")
    static let error = XMLName(XMLNamespace.dav, "error")
    static let resourcetype = XMLName(XMLNamespace.dav, "resourcetype")
    static let collection = XMLName(XMLNamespace.dav, "collection")
    static let displayname = XMLName(XMLNamespace.dav, "displayname")
    static let getetag = XMLName(XMLNamespace.dav, "getetag")
    static let syncToken = XMLName(XMLNamespace.dav, "sync-token")
    static let validSyncToken = XMLName(XMLNamespace.dav, "valid-sync-token")
    static let supportedReportSet = XMLName(XMLNamespace.dav, "supported-report-set")
    static let syncCollection = XMLName(XMLNamespace.dav, "sync-collection")

    static let calendar = XMLName(XMLNamespace.calDAV, "calendar")
    static let calendarData = XMLName(XMLNamespace.calDAV, "calendar-data")
    static let supportedCalendarComponentSet = XMLName(XMLNamespace.calDAV, "supported-calendar-component-set")
    static let comp = XMLName(XMLNamespace.calDAV, "comp")

    static let getctag = XMLName(XMLNamespace.calendarServer, "getctag")
}
