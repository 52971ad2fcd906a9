import CalDAV
import CalDAVServerSupport
import Testing

extension CalDAVServerTests {
@Suite("probe")
struct ProbeTests {
    @Test("a fresh to-do collection is a calendar with VTODO, a sync token and sync-collection", arguments: everyServerKind)
    func probeFreshCollection(kind: CalDAVTestServer.Kind) async throws {
        let server = try CalDAVTestServer.start(kind)
        let info = try await withClient(server) { try await $0.probe() }
        #expect(info.isCalendar)
        #expect(info.supportsVTODO)
        #expect(info.supportedComponents?.contains("VTODO") == true)
        #expect(info.syncToken?.isEmpty == false)
        #expect(info.ctag?.isEmpty == false)
        #expect(info.supportsSyncCollection)
        #expect(info.displayName != nil)
        #expect(info.url == server.collectionURL)
        try info.requireTaskCalendar()
    }

    @Test("the principal's folder is no calendar", arguments: everyServerKind)
    func probeNonCalendar(kind: CalDAVTestServer.Kind) async throws {
        let server = try CalDAVTestServer.start(kind)
        let parent = server.baseURL + (kind == .radicale ? "/me/" : "/user/calendars/")
        let info = try await withClient(try server.account(collectionURL: parent)) { try await $0.probe() }
        #expect(!info.isCalendar)
        #expect(throws: CalDAVError.notACalendar(url: parent)) { try info.requireTaskCalendar() }
    }

    @Test("the sync token changes when a phone adds a to-do", arguments: everyServerKind)
    func tokenMoves(kind: CalDAVTestServer.Kind) async throws {
        let server = try CalDAVTestServer.start(kind)
        let before = try await withClient(server) { try await $0.probe() }
        _ = try server.phone("calendar.save_todo(\"\"\"\(todoCalendar(uid: "probe-1", summary: "Buy milk"))\"\"\")")
        let after = try await withClient(server) { try await $0.probe() }
        #expect(before.syncToken != after.syncToken)
        #expect(before.ctag != after.ctag)
    }
}
}
