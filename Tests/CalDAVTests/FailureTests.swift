import CalDAV
import CalDAVServerSupport
import Foundation
import Testing

extension CalDAVServerTests {
@Suite("failures a user must understand")
struct FailureTests {
    @Test("a wrong password is unauthorized, and the message never shows a password")
    func wrongPassword() async throws {
        let server = try CalDAVTestServer.radicale()
        let account = try server.account(password: "wrong-password")
        let error = await caldavError { _ = try await withClient(account) { try await $0.probe() } }
        #expect(error == .unauthorized(url: server.collectionURL))
        let message = try #require(error).description
        #expect(message.contains("user name or password"))
        #expect(!message.contains("wrong-password") && !message.contains(server.password))
        #expect(!account.description.contains("wrong-password"))
    }

    @Test("a collection that does not exist is notFound for every request", arguments: everyServerKind)
    func missingCollection(kind: CalDAVTestServer.Kind) async throws {
        let server = try CalDAVTestServer.start(kind)
        let missing = server.collectionURL.replacingOccurrences(of: "/tasks/", with: "/gone/")
        let notFound = CalDAVError.notFound(url: missing)
        try await withClient(try server.account(collectionURL: missing)) { client in
            #expect(await caldavError { _ = try await client.probe() } == notFound)
            #expect(await caldavError { _ = try await client.listing() } == notFound)
            #expect(await caldavError { _ = try await client.changes(since: nil) } == notFound)
            #expect(notFound.description.contains("does not exist"))
        }
    }

    @Test("TLS: without the CA the certificate is not trusted; with it, it is, by IP and by name")
    func selfSignedTLS() async throws {
        let server = try CalDAVTestServer.radicale(tls: true)
        #expect(server.collectionURL.hasPrefix("https://"))
        let caFile = try #require(server.caFile)

        let untrusted = await caldavError { _ = try await withClient(try server.account(caFile: .some(nil))) { try await $0.probe() } }
        guard case .connection(let url, let reason) = try #require(untrusted) else {
            Issue.record("expected a connection error, got \(String(describing: untrusted))")
            return
        }
        #expect(url == server.collectionURL)
        #expect(reason.contains("certificate is not trusted"))

        for base in [server.baseURL, "https://localhost:\(server.port)"] {
            let account = try server.account(caFile: caFile, collectionURL: base + "/me/tasks/")
            let info = try await withClient(account) { try await $0.probe() }
            #expect(info.isCalendar)
        }
    }

    @Test("https:// to a plain-HTTP server says it does not speak TLS")
    func wrongScheme() async throws {
        let server = try CalDAVTestServer.radicale()
        let https = server.collectionURL.replacingOccurrences(of: "http://", with: "https://")
        let error = await caldavError { _ = try await withClient(try server.account(collectionURL: https)) { try await $0.probe() } }
        guard case .connection(_, let reason) = try #require(error) else {
            Issue.record("expected a connection error, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("does not speak TLS"), "\(reason)")
    }

    @Test("nothing listening is connection refused")
    func refused() async throws {
        let server = try CalDAVTestServer.xandikos()
        server.stop()
        let error = await caldavError { _ = try await withClient(server) { try await $0.probe() } }
        guard case .connection(_, let reason) = try #require(error) else {
            Issue.record("expected a connection error, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("connection refused"))
    }

    @Test("a URL with credentials in it is refused without repeating them")
    func credentialsInURL() {
        #expect {
            _ = try CalDAVAccount(collectionURL: "https://me:hunter2@example.com/cal/", user: "me", password: "x")
        } throws: { error in
            guard let error = error as? CalDAVError, case .invalidAccount(let reason) = error else { return false }
            return !reason.contains("hunter2")
        }
    }
}
}
