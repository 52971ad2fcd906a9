import Testing

@testable import TodoSync

/// The list as the sync compares it with the server: the to-dos of todod's
/// iCalendar export, by UID, each with what is nested in it.
@Suite struct ExportedTodosTests {
    static let export = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//todod//todod 0.9.0//EN\r
        BEGIN:VTODO\r
        UID:6285093141925946721\r
        DTSTAMP:20261212T120000Z\r
        SUMMARY:Buy oat milk\r
        DESCRIPTION:the organic one\r
        X-TODOD-NOTE;X-ADDED=20261201T083000Z:the organic one\r
        BEGIN:VALARM\r
        TRIGGER;RELATED=END:PT0S\r
        ACTION:DISPLAY\r
        DESCRIPTION:Default Tasks.org description\r
        END:VALARM\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:0b7e1c2a-5d3f-4e6a-9b8c-7d6e5f4a3b2c-42\r
        DTSTAMP:20261212T120000Z\r
        SUMMARY:Renew the passport before the trip to Lisbon and ask about the \r
         visa for the children\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    @Test func everyToDoIsThereByItsUID() throws {
        let todos = try ExportedTodos.parse(Self.export)
        #expect(Set(todos.keys) == ["6285093141925946721", "0b7e1c2a-5d3f-4e6a-9b8c-7d6e5f4a3b2c-42"])
        let milk = try #require(todos["6285093141925946721"])
        #expect(milk.properties.map(\.name) == ["UID", "DTSTAMP", "SUMMARY", "DESCRIPTION", "X-TODOD-NOTE"])
        #expect(milk.components == [tasksOrgAlarm])
        let passport = try #require(todos["0b7e1c2a-5d3f-4e6a-9b8c-7d6e5f4a3b2c-42"])
        #expect(passport.first("SUMMARY")?.value == "Renew the passport before the trip to Lisbon and ask about the visa for the children")
        // The same to-do as a resource holding it reads it.
        let resource = CalendarResource(todo: milk)
        #expect(try CalendarResource(parsing: resource.text(productID: "-//todod//todod 0.9.0//EN")).todo == milk)
    }

    @Test func aToDoWithoutUIDIsLeftOutAndNothingIsNothing() throws {
        let text = crlf(["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:no UID", "END:VTODO", "BEGIN:VTODO", "UID:a", "END:VTODO", "END:VCALENDAR"])
        #expect(try ExportedTodos.parse(text).keys.sorted() == ["a"])
        #expect(try ExportedTodos.parse(crlf(["BEGIN:VCALENDAR", "VERSION:2.0", "END:VCALENDAR"])).isEmpty)
        #expect(try ExportedTodos.parse("").isEmpty)
    }

    @Test func onlyToDosAreRead() throws {
        let text = crlf([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:meeting", "END:VEVENT", "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "END:VTIMEZONE",
            "BEGIN:VTODO", "UID:a", "END:VTODO", "END:VCALENDAR",
        ])
        #expect(try ExportedTodos.parse(text).keys.sorted() == ["a"])
    }

    @Test func aBrokenLineIsAProblemNamingIt() {
        let text = crlf(["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:a", "SUMMARY Buy milk", "END:VTODO", "END:VCALENDAR"])
        #expect(throws: ResourceProblem("line 4: not an iCalendar line (NAME:VALUE): SUMMARY Buy milk")) { try ExportedTodos.parse(text) }
    }
}
