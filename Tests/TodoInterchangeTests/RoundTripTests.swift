import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

/// todod → format → todod keeps everything the format can hold.
@Suite struct RoundTripTests {
    static let items: [TodoItem] = [
        TodoItem(
            id: TodoID(1), title: "Buy milk, eggs; \"bread\"", createdAt: utc(2026, 11, 20, 8), updatedAt: utc(2026, 11, 21, 9),
            due: .day(CalendarDay(year: 2026, month: 11, day: 25)), tags: ["shop", "Weekly"], project: "home.errands",
            priority: .high, notes: [TodoNote(text: "semi-skimmed", addedAt: utc(2026, 11, 21, 9))]),
        TodoItem(
            id: TodoID(2), title: "Pay rent", createdAt: utc(2026, 11, 20, 8), due: .day(CalendarDay(year: 2026, month: 12, day: 31)),
            project: "money", recurrence: Recurrence.monthly.anchored(to: .day(CalendarDay(year: 2026, month: 12, day: 31)), in: .berlin)),
        TodoItem(
            id: TodoID(3), title: "Water ferns", createdAt: utc(2026, 11, 20, 8), due: .day(CalendarDay(year: 2026, month: 11, day: 23)),
            priority: .low, wait: .day(CalendarDay(year: 2026, month: 11, day: 22)),
            recurrence: try! Recurrence(.every(3, .day), countsFromCompletion: true)),
        TodoItem(
            id: TodoID(4), title: "Filed taxes — ünïcödé", isDone: true, createdAt: utc(2026, 11, 1, 7),
            updatedAt: utc(2026, 11, 2, 10), completedAt: utc(2026, 11, 2, 10), due: .moment(utc(2026, 11, 2, 16, 30)),
            priority: .medium, externalID: "abc@example.com"),
        TodoItem(id: TodoID(5), title: "Weekday standup", createdAt: utc(2026, 11, 20, 8), due: .day(CalendarDay(year: 2026, month: 11, day: 23)), recurrence: .weekdays),
    ]

    private func roundTrip(_ format: InterchangeFormat) throws -> [TodoItem] {
        let document = ExportDocument(format: format, listID: listID, timeZone: .berlin, now: noon, version: "test")
        // In two parts, as todod sends a long export.
        let text = document.text(of: Self.items[..<2], itemsBefore: 0, isLast: false)
            + document.text(of: Self.items[2...], itemsBefore: 2, isLast: true)
        let empty = TodoCollection(items: [], nextID: TodoID(1))
        let plan = ImportPlan(try format.read(text, timeZone: .berlin), format: format, into: empty, listID: "another-list", at: noon, timeZone: .berlin)
        #expect(plan.entries.allSatisfy { $0.action == .add && $0.remarks.isEmpty }, "\(plan.entries)")
        var list = empty
        list.apply(try #require(plan.step))
        return list.items.sorted { $0.id < $1.id }
    }

    /// The fields every format holds.
    private func expectCommonFields(_ read: [TodoItem]) {
        #expect(read.map(\.title) == Self.items.map(\.title))
        #expect(read.map(\.isDone) == Self.items.map(\.isDone))
        #expect(read.map(\.priority) == Self.items.map(\.priority))
        #expect(read.map(\.tags) == Self.items.map(\.tags))
        #expect(read.map(\.project) == Self.items.map(\.project))
        #expect(read.map(\.wait) == Self.items.map(\.wait))
    }

    @Test(arguments: [InterchangeFormat.taskwarrior, .ical])
    func formatsWithTimesKeepEverything(format: InterchangeFormat) throws {
        let read = try roundTrip(format)
        expectCommonFields(read)
        #expect(read.map(\.due) == Self.items.map(\.due))
        #expect(read.map(\.createdAt) == Self.items.map(\.createdAt))
        #expect(read.map(\.updatedAt) == Self.items.map(\.updatedAt))
        #expect(read.map(\.completedAt) == Self.items.map(\.completedAt))
        #expect(read.map(\.notes) == Self.items.map(\.notes))
        #expect(read.map(\.recurrence) == Self.items.map { $0.isDone && format == .taskwarrior ? nil : $0.recurrence })
        // Identities go along: an item's own, or the one derived from this list.
        #expect(read[3].externalID == (format == .ical ? "abc@example.com" : ExternalIdentity.derived(TodoID(4), listID: listID)))
        #expect(read[0].externalID == ExternalIdentity.derived(TodoID(1), listID: listID))
    }

    @Test func todoTxtKeepsWhatALineCanSay() throws {
        let read = try roundTrip(.todotxt)
        expectCommonFields(read)
        // Days, not times; dates of creation and completion as days.
        #expect(read[3].due == .day(CalendarDay(year: 2026, month: 11, day: 2)))
        #expect(read.map(\.recurrence) == Self.items.map(\.recurrence))
        #expect(read[3].completedAt == CalendarDay(year: 2026, month: 11, day: 2).start(in: .berlin))
        #expect(read[0].notes.isEmpty)
    }
}
