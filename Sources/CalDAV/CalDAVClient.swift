import Foundation
import Logging

/// A client for one CalDAV calendar collection: what a two-way sync of to-dos
/// needs, and nothing else.
///
/// Every href it returns or accepts is a path in `HrefPath`'s canonical
/// spelling (`/me/tasks/a%40b.ics`), so the caller can key its records by it.
/// Every method throws `CalDAVError` only. Sendable: one client may serve
/// concurrent calls. Call `shutdown()` once when done, before the last
/// reference goes: AsyncHTTPClient stops a debug build whose client was
/// released still running.
public final class CalDAVClient: Sendable {
    /// The largest response body read: a calendar of 100,000 to-dos is far
    /// less, a misbehaving server must not fill the daemon's memory.
    public static let defaultMaximumResponseBytes = 64 * 1024 * 1024
    /// Hrefs per calendar-multiget request: small enough for any server's
    /// request limits, large enough that a first sync is a few requests.
    public static let multigetBatchSize = 100

    public let account: CalDAVAccount
    let transport: DAVTransport

    /// Throws `.invalidAccount` when the CA file cannot be read as PEM.
    public init(
        account: CalDAVAccount, maximumResponseBytes: Int = CalDAVClient.defaultMaximumResponseBytes,
        logger: Logger = Logger(label: "todod.caldav", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(CalDAVError) {
        self.account = account
        transport = try DAVTransport(account: account, maximumResponseBytes: maximumResponseBytes, logger: logger)
    }

    /// Closes the client's connections; no request may follow.
    public func shutdown() async throws {
        try await transport.shutdown()
    }

    var collectionPath: String { account.collectionPath }
    var collectionURL: String { account.collectionURL.absoluteString }

    /// `href` as the canonical path this client uses for keys (see
    /// `HrefPath`), or nil when it is not a URL or path at all.
    public func path(forHref href: String) -> String? {
        HrefPath.normalise(href, relativeTo: account.collectionURL)
    }

    /// What the collection is: PROPFIND Depth 0 for its type, components,
    /// name, ctag, sync token and reports. Does not judge: see
    /// `CollectionInfo.requireTaskCalendar()`.
    public func probe() async throws(CalDAVError) -> CollectionInfo {
        let response = try await transport.send(
            .PROPFIND, path: collectionPath, headers: [("Depth", "0")], body: DAVRequestBodies.probe)
        // A plain web server does not implement PROPFIND (501), allows it
        // nowhere (405), or answers it as a GET (200 with a page).
        if [200, 405, 501].contains(response.status) { throw .notCalDAV(url: response.url, status: response.status) }
        guard response.status == 207 else { throw response.failure(collectionURL: collectionURL) }
        let multistatus = try response.multistatus()
        let ownEntries = multistatus.responses.filter { $0.hrefs.contains { path(forHref: $0) == collectionPath } }
        guard let entry = ownEntries.first ?? (multistatus.responses.count == 1 ? multistatus.responses.first : nil) else {
            throw response.malformed("the answer has no {DAV:}response for \(collectionPath)")
        }
        if let status = entry.overallStatus, !(200..<300).contains(status) {
            throw response.failure(collectionURL: collectionURL, status: status)
        }
        let resourceType = entry.property(DAVName.resourcetype)
        let reports = entry.property(DAVName.supportedReportSet)
        let syncToken = nonEmpty(entry.property(DAVName.syncToken)?.trimmedText)
        return CollectionInfo(
            url: collectionURL,
            isCalendar: resourceType?.child(DAVName.calendar) != nil,
            supportedComponents: entry.property(DAVName.supportedCalendarComponentSet).map { set in
                set.children(DAVName.comp).compactMap { $0.attributes["name"]?.uppercased() }
            },
            displayName: nonEmpty(entry.property(DAVName.displayname)?.trimmedText),
            ctag: nonEmpty(entry.property(DAVName.getctag)?.trimmedText),
            syncToken: syncToken,
            supportsSyncCollection: reports.map { $0.containsDescendant(DAVName.syncCollection) } ?? (syncToken != nil))
    }

    /// Every calendar object in the collection with its ETag: PROPFIND Depth 1.
    /// For servers without sync-collection, and to start over after
    /// `.syncTokenInvalid`. Sub-collections and the collection itself are
    /// left out; an ETag is "" when the server gave none.
    public func listing() async throws(CalDAVError) -> [String: String] {
        let response = try await transport.send(
            .PROPFIND, path: collectionPath, headers: [("Depth", "1")], body: DAVRequestBodies.listing)
        guard response.status == 207 else { throw response.failure(collectionURL: collectionURL) }
        var members: [String: String] = [:]
        for entry in try response.multistatus().responses {
            let paths = entry.hrefs.compactMap { path(forHref: $0) }
            if let status = entry.overallStatus, !(200..<300).contains(status) {
                // Xandikos answers a PROPFIND on a missing collection with a
                // 207 that holds a 404 for it.
                if paths.contains(collectionPath) {
                    throw response.failure(collectionURL: collectionURL, status: status)
                }
                continue
            }
            if entry.property(DAVName.resourcetype)?.child(DAVName.collection) != nil { continue }
            let etag = entry.property(DAVName.getetag)?.trimmedText ?? ""
            for path in paths where HrefPath.isMember(path, of: collectionPath) {
                members[path] = etag
            }
        }
        return members
    }

    func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
