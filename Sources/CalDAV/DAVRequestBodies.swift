/// The XML bodies of the requests this client sends, written as text.
///
/// They are small and fixed but for a token or a list of hrefs, so a string
/// with those values escaped is clearer than a DOM; every value that comes
/// from outside goes through `escaped`. Namespace prefixes are declared on
/// the root, as RFC 4918 servers expect.
enum DAVRequestBodies {
    private static let declaration = #"<?xml version="1.0" encoding="utf-8"?>"#
    private static let namespaces =
        #"xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/""#

    /// PROPFIND Depth 0 on the collection: what `probe()` reports.
    static let probe = """
        \(declaration)
        <D:propfind \(namespaces)><D:prop>\
        <D:resourcetype/><D:displayname/><C:supported-calendar-component-set/>\
        <CS:getctag/><D:sync-token/><D:supported-report-set/>\
        </D:prop></D:propfind>
        """

    /// PROPFIND Depth 1: every member's ETag, and its resource type so that
    /// sub-collections can be told apart from calendar objects.
    static let listing = """
        \(declaration)
        <D:propfind \(namespaces)><D:prop><D:resourcetype/><D:getetag/></D:prop></D:propfind>
        """

    /// The sync-collection REPORT (RFC 6578 §3.2) from `token`, or an initial
    /// one (empty token element) when there is none. Level 1: members only.
    static func syncCollection(token: String?) -> String {
        let tokenElement = token.map { "<D:sync-token>\(escaped($0))</D:sync-token>" } ?? "<D:sync-token/>"
        return """
            \(declaration)
            <D:sync-collection \(namespaces)>\(tokenElement)<D:sync-level>1</D:sync-level>\
            <D:prop><D:getetag/></D:prop></D:sync-collection>
            """
    }

    /// The calendar-multiget REPORT (RFC 4791 §7.9) for `hrefs`, which are
    /// paths as `HrefPath` spells them.
    static func calendarMultiget(hrefs: [String]) -> String {
        let hrefElements = hrefs.map { "<D:href>\(escaped($0))</D:href>" }.joined()
        return """
            \(declaration)
            <C:calendar-multiget \(namespaces)><D:prop><D:getetag/><C:calendar-data/></D:prop>\
            \(hrefElements)</C:calendar-multiget>
            """
    }

    /// `text` safe inside an element or a quoted attribute.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
