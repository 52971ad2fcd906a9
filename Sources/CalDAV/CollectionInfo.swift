/// What `CalDAVClient.probe()` learnt about the collection: whether it can
/// hold to-dos, and which ways of noticing changes it offers.
public struct CollectionInfo: Sendable, Equatable {
    public let url: String
    /// Its resource type includes `{urn:ietf:params:xml:ns:caldav}calendar`.
    public let isCalendar: Bool
    /// The component names of `supported-calendar-component-set`, upper-cased,
    /// or nil when the server did not give the property.
    public let supportedComponents: [String]?
    /// VTODO is in the supported set, or the set is absent: RFC 4791 §5.2.3
    /// says a calendar without the property accepts every component type.
    public var supportsVTODO: Bool { supportedComponents?.contains("VTODO") ?? true }
    public let displayName: String?
    /// Apple's `getctag`: changes whenever anything in the collection does.
    public let ctag: String?
    /// The collection's current `sync-token` (RFC 6578 §4), if it has one.
    public let syncToken: String?
    /// `supported-report-set` lists `sync-collection`; when the server gave
    /// no report set, a sync token is taken as the sign of support.
    public let supportsSyncCollection: Bool

    public init(
        url: String, isCalendar: Bool, supportedComponents: [String]?, displayName: String?,
        ctag: String?, syncToken: String?, supportsSyncCollection: Bool
    ) {
        self.url = url
        self.isCalendar = isCalendar
        self.supportedComponents = supportedComponents
        self.displayName = displayName
        self.ctag = ctag
        self.syncToken = syncToken
        self.supportsSyncCollection = supportsSyncCollection
    }

    /// Throws `.notACalendar` or `.noVTODO` unless to-dos can be stored here.
    public func requireTaskCalendar() throws(CalDAVError) {
        guard isCalendar else { throw .notACalendar(url: url) }
        guard supportsVTODO else { throw .noVTODO(url: url) }
    }
}
