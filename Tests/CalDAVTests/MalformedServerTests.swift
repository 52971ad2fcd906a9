import CalDAV
import Foundation
import Testing

/// What no real server does on purpose, from a canned one: each must end in a
/// clear error, never a crash or a hang.
extension CalDAVServerTests {
@Suite("broken servers")
struct MalformedServerTests {
    /// Runs `body` with a client for the canned server's collection `/cal/`.
    private func withCannedServer(
        _ server: CannedHTTPServer, maximumResponseBytes: Int = CalDAVClient.defaultMaximumResponseBytes,
        _ body: (CalDAVClient) async throws -> Void
    ) async throws {
        do {
            let account = try CalDAVAccount(collectionURL: server.baseURL + "/cal/", user: "me", password: "secret-password")
            try await withClient(account, maximumResponseBytes: maximumResponseBytes, body)
        } catch {
            try? await server.close()
            throw error
        }
        try await server.close()
    }

    private func malformedReason(_ body: () async throws -> Void) async -> String? {
        guard case .malformedResponse(_, let reason)? = await caldavError(body) else { return nil }
        return reason
    }

    @Test("a 207 whose XML breaks off, or goes wrong inside, is malformedResponse saying so")
    func brokenXML() async throws {
        let cutShort = try await CannedHTTPServer(multistatus: #"<multistatus xmlns="DAV:"><response><href>/cal/</href><propst"#)
        try await withCannedServer(cutShort) { client in
            let reason = try #require(await malformedReason { _ = try await client.probe() })
            #expect(reason.contains("not well-formed XML: it ends before the document is complete"))
        }
        let mismatched = try await CannedHTTPServer(multistatus: "<multistatus xmlns=\"DAV:\">\n<response></multistatus>\n")
        try await withCannedServer(mismatched) { client in
            let reason = try #require(await malformedReason { _ = try await client.listing() })
            #expect(reason.contains("not well-formed XML: parser error"))
            #expect(reason.contains("line 2"))
        }
    }

    @Test("XML that is not a multistatus, or a response without href, is malformedResponse")
    func wrongXML() async throws {
        let notMultistatus = try await CannedHTTPServer(multistatus: #"<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>"#)
        try await withCannedServer(notMultistatus) { client in
            let reason = try #require(await malformedReason { _ = try await client.listing() })
            #expect(reason.contains("{DAV:}multistatus"))
        }
        let noHref = try await CannedHTTPServer(
            multistatus: #"<D:multistatus xmlns:D="DAV:"><D:response><D:status>HTTP/1.1 200 OK</D:status></D:response></D:multistatus>"#)
        try await withCannedServer(noHref) { client in
            let reason = try #require(await malformedReason { _ = try await client.changes(since: nil) })
            #expect(reason.contains("href"))
        }
        let badStatus = try await CannedHTTPServer(
            multistatus: #"<D:multistatus xmlns:D="DAV:"><D:response><D:href>/cal/</D:href><D:status>fine</D:status></D:response></D:multistatus>"#)
        try await withCannedServer(badStatus) { client in
            let reason = try #require(await malformedReason { _ = try await client.probe() })
            #expect(reason.contains("not an HTTP status line"))
        }
        let noToken = try await CannedHTTPServer(multistatus: #"<D:multistatus xmlns:D="DAV:"/>"#)
        try await withCannedServer(noToken) { client in
            let reason = try #require(await malformedReason { _ = try await client.changes(since: nil) })
            #expect(reason.contains("sync-token"))
        }
    }

    @Test("a connection closed mid-body is a connection error saying so")
    func closedMidBody() async throws {
        let server = try await CannedHTTPServer(
            head: "HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml\r\nContent-Length: 5000",
            body: #"<?xml version="1.0"?><multistatus xmlns="DAV:"><response><href>/cal/</href>"#)
        try await withCannedServer(server) { client in
            let error = try #require(await caldavError { _ = try await client.probe() })
            guard case .connection(let url, let reason) = error else {
                Issue.record("expected a connection error, got \(error)")
                return
            }
            #expect(url == server.baseURL + "/cal/")
            #expect(reason.contains("closed the connection"))
        }
    }

    @Test("a body over the limit is refused, announced or not")
    func tooLarge() async throws {
        let announced = try await CannedHTTPServer(
            head: "HTTP/1.1 207 Multi-Status\r\nContent-Length: 100000000", body: "<multistatus")
        try await withCannedServer(announced, maximumResponseBytes: 4096) { client in
            #expect(await caldavError { _ = try await client.probe() } == .responseTooLarge(url: announced.baseURL + "/cal/", limit: 4096))
        }
        let chunk = String(repeating: "x", count: 8192)
        let chunked = try await CannedHTTPServer(
            head: "HTTP/1.1 207 Multi-Status\r\nTransfer-Encoding: chunked",
            body: String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n0\r\n\r\n")
        try await withCannedServer(chunked, maximumResponseBytes: 4096) { client in
            let error = await caldavError { _ = try await client.listing() }
            #expect(error == .responseTooLarge(url: chunked.baseURL + "/cal/", limit: 4096))
            #expect(error?.description.contains("4096 bytes") == true)
        }
    }

    @Test("a redirect names where the collection went; 5xx and odd statuses are told apart")
    func statuses() async throws {
        let moved = try await CannedHTTPServer(
            head: "HTTP/1.1 301 Moved Permanently\r\nLocation: https://elsewhere.example/cal/\r\nContent-Length: 0", body: "")
        try await withCannedServer(moved) { client in
            let error = await caldavError { _ = try await client.probe() }
            #expect(error == .redirected(url: moved.baseURL + "/cal/", location: "https://elsewhere.example/cal/"))
            #expect(error?.description.contains("https://elsewhere.example/cal/") == true)
        }
        let unavailable = try await CannedHTTPServer(head: "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0", body: "")
        try await withCannedServer(unavailable) { client in
            #expect(await caldavError { _ = try await client.listing() } == .serverError(url: unavailable.baseURL + "/cal/", status: 503))
        }
        let ok = try await CannedHTTPServer(head: "HTTP/1.1 200 OK\r\nContent-Length: 2", body: "hi")
        try await withCannedServer(ok) { client in
            #expect(await caldavError { _ = try await client.listing() } == .unexpectedStatus(url: ok.baseURL + "/cal/", status: 200))
        }
    }

    /// A plain web server (no WebDAV) answers PROPFIND with 501, 405 or a
    /// page: the URL does not speak CalDAV, said so, not "try again later".
    @Test("a plain web server is told as not speaking CalDAV", arguments: [(501, "Not Implemented"), (405, "Method Not Allowed"), (200, "OK")])
    func plainWebServer(_ status: Int, _ reason: String) async throws {
        let plain = try await CannedHTTPServer(head: "HTTP/1.1 \(status) \(reason)\r\nContent-Length: 2", body: "hi")
        try await withCannedServer(plain) { client in
            let error = await caldavError { _ = try await client.probe() }
            #expect(error == .notCalDAV(url: plain.baseURL + "/cal/", status: status))
            #expect(error?.description.contains("does not speak CalDAV") == true)
            #expect(error?.description.contains("try again later") == false)
        }
    }
}
}
