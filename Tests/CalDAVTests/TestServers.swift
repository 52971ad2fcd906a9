import CalDAV
import CalDAVServerSupport
import Foundation

/// The servers every behaviour is checked against.
let everyServerKind: [CalDAVTestServer.Kind] = [.radicale, .xandikos]

extension CalDAVTestServer {
    /// A fresh server of `kind` (plain HTTP).
    static func start(_ kind: Kind) throws -> CalDAVTestServer {
        switch kind {
        case .radicale: try radicale()
        case .xandikos: try xandikos()
        }
    }

    /// The account for this server's collection, with the right password and
    /// CA unless told otherwise.
    func account(password: String? = nil, caFile: String?? = nil, collectionURL: String? = nil) throws -> CalDAVAccount {
        try CalDAVAccount(
            collectionURL: collectionURL ?? self.collectionURL, user: user, password: password ?? self.password,
            caFile: caFile ?? self.caFile)
    }
}

/// Runs `body` with a client for `account`, and shuts the client down
/// afterwards whatever happens (AsyncHTTPClient insists on it).
func withClient<Result>(
    _ account: CalDAVAccount, maximumResponseBytes: Int = CalDAVClient.defaultMaximumResponseBytes,
    _ body: (CalDAVClient) async throws -> Result
) async throws -> Result {
    let client = try CalDAVClient(account: account, maximumResponseBytes: maximumResponseBytes)
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// Runs `body` with a client for `server`'s collection.
func withClient<Result>(
    _ server: CalDAVTestServer, _ body: (CalDAVClient) async throws -> Result
) async throws -> Result {
    try await withClient(try server.account(), body)
}

/// iCalendar text of one to-do.
func todoCalendar(uid: String, summary: String) -> String {
    [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todod//CalDAV tests//EN",
        "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20250101T000000Z", "SUMMARY:\(summary)", "END:VTODO",
        "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
}

/// The error `body` threw, or nil when it threw none (or another kind).
func caldavError(_ body: () async throws -> Void) async -> CalDAVError? {
    do {
        try await body()
        return nil
    } catch let error as CalDAVError {
        return error
    } catch {
        return nil
    }
}

/// iCalendar text unfolded (RFC 5545 §3.1) and without TEXT escapes, for
/// finding a value however the server re-serialised it.
func plainText(_ calendarData: String) -> String {
    calendarData.replacingOccurrences(of: "\r\n", with: "\n")
        .replacingOccurrences(of: "\n ", with: "").replacingOccurrences(of: "\n\t", with: "")
        .replacingOccurrences(of: "\\", with: "")
}
