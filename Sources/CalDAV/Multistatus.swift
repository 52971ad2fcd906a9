import Foundation

/// A WebDAV 207 Multi-Status body (RFC 4918 §14.16), read into what this
/// client needs: for each response its hrefs and either one status or the
/// properties by status; and the sync token that RFC 6578 adds at the top.
///
/// Reading is strict where a wrong guess would corrupt a sync (a response
/// without a href, a status line without a code) and lenient elsewhere
/// (unknown elements are ignored), as RFC 4918 asks of clients.
struct Multistatus: Sendable, Equatable {
    struct Response: Sendable, Equatable {
        /// As the server wrote them, white space trimmed; at least one. RFC
        /// 4918 allows several hrefs only in a response with a single status.
        let hrefs: [String]
        /// The response-wide status (`<D:status>` beside the hrefs), if any:
        /// 404 for a member that is gone in a sync report or a multiget.
        let status: Int?
        let propstats: [Propstat]

        /// The property `name` as found in a 2xx propstat, or nil when the
        /// server did not return it (or returned it with a 404 or 403).
        func property(_ name: XMLName) -> XMLTreeElement? {
            for propstat in propstats where (200..<300).contains(propstat.status) {
                if let found = propstat.properties.first(where: { $0.name == name }) { return found }
            }
            return nil
        }

        /// The status of this href as a whole: the response-wide one, else
        /// that of the propstats when they all agree (a multiget of a missing
        /// resource may say 404 there), else nil.
        var overallStatus: Int? {
            if let status { return status }
            let statuses = Set(propstats.map(\.status))
            return statuses.count == 1 ? statuses.first : nil
        }
    }

    struct Propstat: Sendable, Equatable {
        let status: Int
        let properties: [XMLTreeElement]
    }

    let responses: [Response]
    /// The top-level `<D:sync-token>` of a sync-collection report.
    let syncToken: String?

    /// Reads `data`; the reason in the thrown error says what was wrong.
    static func parse(_ data: Data) throws(XMLTreeError) -> Multistatus {
        let root = try XMLElementTree.parse(data)
        guard root.name == DAVName.multistatus else {
            throw XMLTreeError(reason: "the root element is \(root.name), where {DAV:}multistatus was expected")
        }
        var responses: [Response] = []
        for element in root.children(DAVName.response) {
            responses.append(try response(element))
        }
        let token = root.child(DAVName.syncToken)?.trimmedText
        return Multistatus(responses: responses, syncToken: token?.isEmpty == false ? token : nil)
    }

    private static func response(_ element: XMLTreeElement) throws(XMLTreeError) -> Response {
        let hrefs = element.children(DAVName.href).map(\.trimmedText)
        guard !hrefs.isEmpty, !hrefs.contains(where: \.isEmpty) else {
            throw XMLTreeError(reason: "a {DAV:}response has no {DAV:}href, or an empty one")
        }
        var status: Int?
        if let statusElement = element.child(DAVName.status) {
            status = try statusCode(statusElement.trimmedText, in: hrefs[0])
        }
        var propstats: [Propstat] = []
        for propstat in element.children(DAVName.propstat) {
            guard let statusElement = propstat.child(DAVName.status) else {
                throw XMLTreeError(reason: "a {DAV:}propstat for \(hrefs[0]) has no {DAV:}status")
            }
            let code = try statusCode(statusElement.trimmedText, in: hrefs[0])
            propstats.append(Propstat(status: code, properties: propstat.child(DAVName.prop)?.children ?? []))
        }
        guard status != nil || !propstats.isEmpty else {
            throw XMLTreeError(reason: "the {DAV:}response for \(hrefs[0]) has neither a status nor a propstat")
        }
        return Response(hrefs: hrefs, status: status, propstats: propstats)
    }

    /// The code of an HTTP status line, "HTTP/1.1 404 Not Found" → 404.
    static func statusCode(_ line: String, in href: String) throws(XMLTreeError) -> Int {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3,
              let code = Int(parts[1]), (100...599).contains(code)
        else {
            throw XMLTreeError(reason: "the status \"\(line.prefix(80))\" for \(href) is not an HTTP status line")
        }
        return code
    }
}

/// A `<D:error>` body (RFC 4918 §16): the precondition the server says failed.
enum DAVErrorBody {
    /// The conditions named inside the body's `<D:error>`, e.g.
    /// `{DAV:}valid-sync-token`, or [] when the body is no such document.
    static func conditions(in data: Data) -> [XMLName] {
        guard let root = try? XMLElementTree.parse(data), root.name == DAVName.error else { return [] }
        return root.children.map(\.name)
    }
}
