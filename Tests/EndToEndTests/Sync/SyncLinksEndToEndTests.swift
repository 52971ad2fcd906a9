import CalDAVServerSupport
import Foundation
import Testing

/// Links and what other programs keep in a to-do, through a real server:
/// a subtask a phone makes (`RELATED-TO;RELTYPE=PARENT`) is a subtask
/// here, a dependency made here reaches the server as
/// `RELATED-TO;RELTYPE=DEPENDS-ON`, and a phone's alarm and `X-`
/// properties survive an edit made here, unchanged.
extension SyncEndToEndTests {
@Suite struct SyncLinksEndToEndTests {
    static let servers = SyncBasicsEndToEndTests.servers

    @Test(arguments: servers)
    func aSubtaskMadeOnThePhoneIsASubtaskHere(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        let server = list.server
        try await list.todo("add", "plan the trip")
        try await list.syncNow()
        let parent = try await list.listTodo("plan the trip").uid

        _ = try server.phone(
            """
            calendar.save_todo('BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//Example//Phone Tasks//EN\\r\\nBEGIN:VTODO\\r\\n'
                'UID:flights@phone.example\\r\\nDTSTAMP:20261127T090000Z\\r\\nSUMMARY:book flights\\r\\n'
                'RELATED-TO;RELTYPE=PARENT:\(parent)\\r\\nEND:VTODO\\r\\nEND:VCALENDAR\\r\\n')
            """)
        try await list.syncNow()

        let listed = try await list.todo("ls")
        let line = listed.split(separator: "\n").first { $0.contains("book flights") }
        #expect(line?.contains("Subtask of: 1") == true, "\(listed)")
        #expect(try await list.todo("show", try await list.id(of: "book flights")).contains("parent      1"))
        #expect(try await list.disagreements() == [])
    }

    @Test(arguments: servers)
    func aDependencyMadeHereReachesTheServer(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        try await list.todo("add", "book flights")
        try await list.todo("add", "pack bags")
        try await list.syncNow()

        try await list.todo("modify", "2", "depends:1")
        try await list.syncNow()

        let flights = try await list.listTodo("book flights").uid
        let bags = try #require(try list.serverTodos().first { $0.summary == "pack bags" })
        #expect(bags.text.contains("RELATED-TO;RELTYPE=DEPENDS-ON:\(flights)"), "\(bags.text)")
        #expect(try await list.disagreements() == [])
    }

    @Test(arguments: servers)
    func aPhonesAlarmAndPropertiesSurviveAnEditHere(_ kind: CalDAVTestServer.Kind) async throws {
        let list = try await SyncedList.started(on: kind)
        let server = list.server
        _ = try server.phone(
            """
            calendar.save_todo('BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//Example//Phone Tasks//EN\\r\\nBEGIN:VTODO\\r\\n'
                'UID:dentist@phone.example\\r\\nDTSTAMP:20261127T090000Z\\r\\nLAST-MODIFIED:20261127T090000Z\\r\\n'
                'SUMMARY:dentist\\r\\nDUE:20261210T090000Z\\r\\nURL:https://example.com/dentist\\r\\n'
                'X-APPLE-SORT-ORDER:738920541\\r\\nX-MOZ-GENERATION:3\\r\\nX-MOZ-LASTACK:20261126T080000Z\\r\\n'
                'BEGIN:VALARM\\r\\nACTION:DISPLAY\\r\\nDESCRIPTION:Reminder\\r\\nTRIGGER;RELATED=END:-PT15M\\r\\nEND:VALARM\\r\\n'
                'END:VTODO\\r\\nEND:VCALENDAR\\r\\n')
            """)
        try await list.syncNow()
        try await list.todo("edit", try await list.id(of: "dentist"), "dentist at 9")
        try await list.syncNow()

        // The phone reads it back: retitled, the rest as it wrote it.
        let read = try server.phone(
            """
            import json
            [item] = [t for t in calendar.todos(include_completed=True) if str(t.icalendar_component['uid']) == 'dentist@phone.example']
            todo = item.icalendar_component
            alarms = [sorted((k, v.to_ical().decode() if hasattr(v, 'to_ical') else str(v)) for k, v in a.items()) for a in todo.walk('VALARM')]
            print(json.dumps({'summary': str(todo['summary']), 'url': str(todo.get('url')),
                'sort': str(todo.get('x-apple-sort-order')), 'generation': str(todo.get('x-moz-generation')),
                'lastack': todo.get('x-moz-lastack').to_ical().decode() if hasattr(todo.get('x-moz-lastack'), 'to_ical') else str(todo.get('x-moz-lastack')),
                'alarms': alarms}, sort_keys=True))
            """)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(read.utf8)) as? [String: Any], "\(read)")
        #expect(object["summary"] as? String == "dentist at 9", "\(read)")
        #expect(object["url"] as? String == "https://example.com/dentist", "\(read)")
        #expect(object["sort"] as? String == "738920541", "\(read)")
        #expect(object["generation"] as? String == "3", "\(read)")
        #expect(object["lastack"] as? String == "20261126T080000Z", "\(read)")
        let alarms = try #require(object["alarms"] as? [[[String]]], "\(read)")
        #expect(alarms == [[["ACTION", "DISPLAY"], ["DESCRIPTION", "Reminder"], ["TRIGGER", "-PT15M"]]], "\(read)")
        let text = try #require(try list.serverTodos().first { $0.uid == "dentist@phone.example" }?.text)
        #expect(text.contains("TRIGGER;RELATED=END:-PT15M"), "\(text)")
        #expect(try await list.disagreements() == [])
    }
}
}
