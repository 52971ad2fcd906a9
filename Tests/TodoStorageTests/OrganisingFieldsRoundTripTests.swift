import Foundation
import Testing
import TodoModel
import TodoViewModels
@testable import TodoStorage
import TodoViewState

/// v4's fields and named views, written through `write` and read by `load`
/// (and after a reopen, which is what a restart does): they must come back
/// equal, not merely present. A field the store drops or rounds fails here.
@Suite struct OrganisingFieldsRoundTripTests {
    /// The test's database, in a folder of its own that goes when the test ends.
    let database: TemporaryDatabase
    var path: String { database.path }
    let created = Date(timeIntervalSince1970: 1_795_165_200)  // 2026-11-20 09:00 UTC

    init() throws {
        database = try TemporaryDatabase("fields")
    }

    /// `created` plus some seconds, to the millisecond as the view model keeps times.
    private func later(_ seconds: Double) -> Date { Date(timeIntervalSince1970: created.timeIntervalSince1970 + seconds) }

    /// Every new field set; tags in mixed case, which must keep their spelling.
    private func everything() throws -> TodoItem {
        TodoItem(
            id: TodoID(1), title: "repaint the fence", createdAt: created, updatedAt: later(3600.125),
            due: .day(CalendarDay(year: 2027, month: 1, day: 31)),
            tags: ["Garden", "weekend", "DIY"], project: "home.garden", priority: .high,
            notes: [
                TodoNote(text: "buy green paint", addedAt: later(60.5)),
                TodoNote(text: "ask “Sam” about the ladder", addedAt: later(120.25)),
            ],
            wait: .day(CalendarDay(year: 2027, month: 1, day: 10)),
            recurrence: try Recurrence(parsing: "monthly on day 31"),
            fieldChangedAt: [.tags: later(60), .priority: later(90.001), .notes: later(120.25), .recurrence: later(3600.125)])
    }

    /// A wait moment (rather than day), beside a due moment.
    private func waitingForAMoment() throws -> TodoItem {
        TodoItem(
            id: TodoID(2), title: "call the plumber", createdAt: created, due: .moment(later(7 * 86_400)),
            tags: ["calls"], project: "home", priority: .low, wait: .moment(later(2 * 86_400 + 0.5)),
            recurrence: try Recurrence(parsing: "every 2 weeks from completion"))
    }

    @Test func itemsWithEveryNewFieldComeBackEqual() throws {
        let items = [try everything(), try waitingForAMoment()]
        let store = try SQLiteTodoStore(path: path)
        try store.write([ListWrite(changes: items.map { ItemChange(before: nil, after: $0) })])
        #expect(try store.load().items == items)
        try store.close()
        #expect(try SQLiteTodoStore(path: path).load().items == items)
    }

    /// What other programs keep (v7) comes back as it went in, in the
    /// database and through an undo step's JSON.
    @Test func foreignFieldsComeBackAsTheyCame() throws {
        var item = try everything()
        item.foreign = ForeignFields(
            taskwarrior: ["scheduled": "\"20270101T000000Z\"", "estimate": "3.5", "depends": "[\"a\",\"b\"]"],
            icalendar: ["URL:https://example.com", "BEGIN:VALARM", "TRIGGER:-PT15M", "END:VALARM", "X-ODD;;:kept"])
        let store = try SQLiteTodoStore(path: path)
        try store.write([ListWrite(changes: [ItemChange(before: nil, after: item)])])
        try store.close()
        #expect(try SQLiteTodoStore(path: path).load().items == [item])
        let json = try JSONEncoder().encode(item)
        #expect(try JSONDecoder().decode(TodoItem.self, from: json) == item)
        // An item without any keeps its JSON as small as before.
        #expect(!String(decoding: try JSONEncoder().encode(try everything()), as: UTF8.self).contains("foreign"))
    }

    /// Declared fields' values (v8) come back with their kinds, and their
    /// change times with them; an item without any stores NULL.
    @Test func declaredFieldValuesComeBackWithTheirKinds() throws {
        var item = try everything()
        item.values = [
            "scheduled": .date(.day(CalendarDay(year: 2027, month: 1, day: 4))),
            "until": .date(.moment(Date(timeIntervalSince1970: 1_830_000_000.25))),
            "estimate": .number(0.1), "effort": .duration(5400), "size": .text("XL"),
        ]
        item.fieldChangedAt[ItemField(rawValue: "estimate")] = Date(timeIntervalSince1970: 1_800_000_000)
        let store = try SQLiteTodoStore(path: path)
        try store.write([ListWrite(changes: [ItemChange(before: nil, after: item), ItemChange(before: nil, after: try waitingForAMoment())])])
        try store.close()
        #expect(try SQLiteTodoStore(path: path).load().items == [item, try waitingForAMoment()])
    }

    /// The recurrence is stored as its canonical text; the anchor day is part of it.
    @Test func theRecurrenceKeepsItsAnchorDay() throws {
        let store = try SQLiteTodoStore(path: path)
        try store.write([ListWrite(changes: [ItemChange(before: nil, after: try everything())])])
        let loaded = try #require(try store.load().items.first?.recurrence)
        #expect(loaded.anchorDay == 31)
        #expect(loaded.text == "monthly on day 31")
    }

    /// Clearing the fields of a stored item clears its columns: the update
    /// writes NULL rather than keeping the old values.
    @Test func clearedFieldsStayCleared() throws {
        let full = try everything()
        let plain = TodoItem(id: full.id, title: full.title, createdAt: full.createdAt, updatedAt: later(9000))
        let store = try SQLiteTodoStore(path: path)
        try store.write([ListWrite(changes: [ItemChange(before: nil, after: full)])])
        try store.write([ListWrite(changes: [ItemChange(before: full, after: plain)])])
        try store.close()
        #expect(try SQLiteTodoStore(path: path).load().items == [plain])
    }

    @Test func aNamedViewRoundTripsAndRemovedViewsDeletesIt() throws {
        let query = try Query.parse("+garden pri:H or project:home").description
        let garden = ViewSettings(
            filter: .active, sort: try ListSort(parsing: "priority,due-"), query: query, grouping: .project)
        let main = ViewSettings(filter: .all, sort: .title)
        let store = try SQLiteTodoStore(path: path)
        try store.write([ListWrite(viewSettings: ["garden": garden, "main": main])])
        try store.close()

        let reopened = try SQLiteTodoStore(path: path)
        let loaded = try reopened.load().viewSettings
        #expect(loaded == ["garden": garden, "main": main])
        #expect(loaded["garden"]?.sort.text == "priority,due-")

        try reopened.write([ListWrite(removedViews: ["garden"])])
        try reopened.close()
        #expect(try SQLiteTodoStore(path: path).load().viewSettings == ["main": main])
    }
}
