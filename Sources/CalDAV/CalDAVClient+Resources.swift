extension CalDAVClient {
    /// The calendar data and ETag of each of `hrefs`, by calendar-multiget
    /// REPORT (RFC 4791 §7.9), `multigetBatchSize` hrefs per request. Members
    /// the server reports missing (404) are simply absent from the result, as
    /// is anything the server sends that was not asked for.
    public func fetch(_ hrefs: [String]) async throws(CalDAVError) -> [FetchedResource] {
        var wanted: [String] = []
        var seen: Set<String> = []
        for href in hrefs {
            guard let path = path(forHref: href) else {
                throw .invalidHref(href: String(href.prefix(200)), collection: collectionURL)
            }
            if seen.insert(path).inserted { wanted.append(path) }
        }
        var fetched: [FetchedResource] = []
        var start = 0
        while start < wanted.count {
            let batch = Array(wanted[start..<min(start + Self.multigetBatchSize, wanted.count)])
            fetched += try await multiget(batch, asked: Set(batch))
            start += batch.count
        }
        // Xandikos 0.2.8 decodes a multiget href before parsing it as a URL,
        // so a name with `?` or `#` in it is cut there and reported missing.
        // Those few are asked for one by one; GET has no such trouble.
        let found = Set(fetched.map(\.href))
        for path in wanted where !found.contains(path) && (path.contains("%3F") || path.contains("%23")) {
            if let resource = try await get(path) { fetched.append(resource) }
        }
        return fetched
    }

    private func multiget(_ paths: [String], asked: Set<String>) async throws(CalDAVError) -> [FetchedResource] {
        let response = try await transport.send(
            .REPORT, path: collectionPath, headers: [("Depth", "1")],
            body: DAVRequestBodies.calendarMultiget(hrefs: paths))
        guard response.status == 207 else { throw response.failure(collectionURL: collectionURL) }
        var resources: [FetchedResource] = []
        for entry in try response.multistatus().responses {
            if let status = entry.status, !(200..<300).contains(status) { continue }
            guard let data = entry.property(DAVName.calendarData) else { continue }
            for href in entry.hrefs {
                guard let path = path(forHref: href), asked.contains(path) else { continue }
                guard let etag = nonEmpty(entry.property(DAVName.getetag)?.trimmedText) else {
                    throw response.malformed("the calendar data of \(path) came without an ETag")
                }
                resources.append(FetchedResource(href: path, etag: etag, calendarData: data.text))
            }
        }
        return resources
    }

    /// One member by GET, or nil when it is not there (404 or 410). The ETag
    /// is "" if the server sent none.
    public func get(_ href: String) async throws(CalDAVError) -> FetchedResource? {
        let path = try memberPath(href)
        let response = try await transport.send(.GET, path: path)
        switch response.status {
        case 200: return FetchedResource(href: path, etag: response.etag ?? "", calendarData: response.text)
        case 404, 410: return nil
        default: throw response.failure(collectionURL: collectionURL)
        }
    }

    /// Writes `calendarText` at `href` if `condition` holds, and returns the
    /// new ETag, or nil when the server sent none (it may have changed the
    /// data: fetch it to learn both). Throws `.preconditionFailed` when the
    /// condition fails: someone else wrote first.
    public func put(_ href: String, calendarText: String, condition: PutCondition) async throws(CalDAVError) -> String? {
        let path = try memberPath(href)
        let header = switch condition {
        case .ifMatch(let etag): ("If-Match", etag)
        case .ifNoneMatch: ("If-None-Match", "*")
        }
        let response = try await transport.send(
            .PUT, path: path, headers: [header], body: calendarText, contentType: "text/calendar; charset=utf-8")
        switch response.status {
        case 200, 201, 204: return response.etag
        default:
            // A `where` would guard the last status only: the body decides for each.
            if [207, 403, 409, 412].contains(response.status), response.text.contains("no-uid-conflict") { throw .uidInUse(url: response.url) }
            throw response.failure(collectionURL: collectionURL)
        }
    }

    /// Deletes `href`, only while its ETag is `etag` when one is given.
    /// Returns true when it was deleted now, false when it was already gone
    /// (404 or 410: the end the caller wanted, reported so it can tell).
    /// Throws `.preconditionFailed` when it changed since `etag`.
    @discardableResult
    public func delete(_ href: String, ifMatch etag: String?) async throws(CalDAVError) -> Bool {
        let path = try memberPath(href)
        let response = try await transport.send(.DELETE, path: path, headers: etag.map { [("If-Match", $0)] } ?? [])
        switch response.status {
        case 200, 202, 204: return true
        case 404, 410: return false
        default: throw response.failure(collectionURL: collectionURL)
        }
    }

    /// The href for a new resource holding the to-do `uid`: the collection's
    /// path, a name, and `.ics`.
    ///
    /// The name is the UID itself when it is made of letters, digits and
    /// `- _ . ~ @` only (percent-encoded: `@` is sent as `%40`), which covers
    /// the UUIDs and `…@host` UIDs nearly every client makes. Any other UID
    /// gets `todo-` and 16 hex digits of its hash instead: servers mishandle
    /// other characters in names (Xandikos cuts a multiget href at a decoded
    /// `?` or `#`, servers decode `%2F` into a folder, some read `+` as a
    /// space), and a UID may be too long for a file name. So do UIDs starting
    /// with `.` (hidden files, `..`), and empty ones. The href need not spell
    /// the UID: the UID is in the data, and the caller keeps the href.
    public func href(forUID uid: String) -> String {
        let plain = !uid.isEmpty && !uid.hasPrefix(".") && uid.utf8.count <= 200
            && uid.utf8.allSatisfy { Self.plainNameBytes.contains($0) }
        let name = plain ? HrefPath.encodeSegment(uid) : "todo-" + Self.fnv1a64Hex(uid)
        return collectionPath + name + ".ics"
    }

    private static let plainNameBytes = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~@".utf8))

    /// `href` as a canonical path, which must be a member of the collection:
    /// this client only writes inside its own collection.
    private func memberPath(_ href: String) throws(CalDAVError) -> String {
        guard let path = path(forHref: href), HrefPath.isMember(path, of: collectionPath) else {
            throw .invalidHref(href: String(href.prefix(200)), collection: collectionURL)
        }
        return path
    }

    /// FNV-1a, 64 bits, as 16 hex digits: stable across runs and platforms
    /// (unlike `Hasher`), which a name derived from a UID must be.
    static func fnv1a64Hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
