/// What went wrong talking to a CalDAV server, each case with a one-line
/// message a user can act on. Every message names the URL concerned; none
/// contains the password (it is never stored in an error, and URLs with
/// credentials in them are refused by `CalDAVAccount`).
public enum CalDAVError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The account cannot be used as given (bad URL, unreadable CA file).
    case invalidAccount(String)
    /// A href given to the client is not a member of its collection.
    case invalidHref(href: String, collection: String)
    /// 401: the user name or password is wrong.
    case unauthorized(url: String)
    /// 403, not about a sync token. `condition` is the precondition the server
    /// named in its error body (e.g. `valid-calendar-data`), if it named one.
    case forbidden(url: String, condition: String?)
    /// 404 for the collection: it is not there (any more).
    case notFound(url: String)
    /// 412: the resource changed (If-Match) or exists (If-None-Match) since the
    /// caller last saw it; fetch it, merge, and try again.
    case preconditionFailed(url: String)
    /// The server holds another resource with the same UID (RFC 4791
    /// `no-uid-conflict`, as 403, 409, or a 412 in a 207 as Xandikos sends
    /// it after a UID changed at a href): this UID cannot be written here.
    case uidInUse(url: String)
    /// The server no longer knows the sync token (RFC 6578 §3.2
    /// `valid-sync-token`): start over with `listing()` and `changes(since: nil)`.
    case syncTokenInvalid(url: String)
    /// 301, 302, 307 or 308: the collection has moved to `location`.
    case redirected(url: String, location: String)
    /// 5xx.
    case serverError(url: String, status: Int)
    /// Any other status this operation does not expect.
    case unexpectedStatus(url: String, status: Int)
    /// The body was not what the protocol says; `reason` says what was wrong.
    case malformedResponse(url: String, reason: String)
    /// The body was larger than the client reads (`limit` bytes).
    case responseTooLarge(url: String, limit: Int)
    /// No answer could be had: refused, reset, closed mid-response, timed out,
    /// TLS failed. `reason` says which.
    case connection(url: String, reason: String)
    /// The URL answers, but is not a calendar collection.
    case notACalendar(url: String)
    /// The calendar does not accept to-dos (its supported component set lacks VTODO).
    case noVTODO(url: String)
    /// The URL's server is no WebDAV server at all: it answered PROPFIND
    /// with `status` (501 or 405 from a plain web server, 200 with a page).
    /// Unlike a 5xx of a CalDAV server, waiting will not help.
    case notCalDAV(url: String, status: Int)

    public var description: String {
        switch self {
        case .invalidAccount(let reason):
            "CalDAV account: \(reason)"
        case .invalidHref(let href, let collection):
            "\"\(href)\" is not a resource in the collection \(collection)"
        case .unauthorized(let url):
            "\(url): the server refused the user name or password (401)"
        case .forbidden(let url, let condition):
            "\(url): the server refused the request (403\(condition.map { ", \($0)" } ?? ""))"
        case .notFound(let url):
            "the collection \(url) does not exist (deleted on the server?)"
        case .preconditionFailed(let url):
            "\(url) changed on the server since it was last read (412)"
        case .uidInUse(let url):
            "\(url): the server holds another resource with this to-do's UID (no-uid-conflict)"
        case .syncTokenInvalid(let url):
            "\(url): the server no longer accepts the sync token; a full resync is needed"
        case .redirected(let url, let location):
            "\(url) has moved to \(location); use that URL for the collection"
        case .serverError(let url, let status):
            "\(url): the server failed with status \(status); try again later"
        case .unexpectedStatus(let url, let status):
            "\(url): the server answered with unexpected status \(status)"
        case .malformedResponse(let url, let reason):
            "\(url): the server's answer could not be read: \(reason)"
        case .responseTooLarge(let url, let limit):
            "\(url): the server's answer is larger than \(Self.size(limit)); refused to read it"
        case .connection(let url, let reason):
            "\(url): \(reason)"
        case .notACalendar(let url):
            "\(url) is not a calendar collection; give the URL of a calendar"
        case .noVTODO(let url):
            "the calendar \(url) does not accept to-dos (VTODO); choose a task list"
        case .notCalDAV(let url, let status):
            "\(url) does not speak CalDAV (it answered PROPFIND with status \(status)); give the URL of a calendar collection on a CalDAV server"
        }
    }

    /// A byte count as people read it: 64 MiB, 900 bytes.
    private static func size(_ bytes: Int) -> String {
        bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024)) MiB" : "\(bytes) bytes"
    }
}
