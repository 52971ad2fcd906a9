import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

/// A list's own export imported back into that list, as people do when
/// they keep a file in step: it must change nothing, whatever the list
/// holds that the format says less precisely (milliseconds, times of day),
/// and whatever happened to the list in between.
@Suite struct ReimportTests {
    static let later = noon.addingTimeInterval(86_400)

    /// Items as todod makes them: times with milliseconds.
    static let list: [TodoItem] = [
        TodoItem(
            id: TodoID(1), title: "Call Mom", createdAt: noon.addingTimeInterval(0.123), updatedAt: noon.addingTimeInterval(60.456),
            due: .moment(utc(2026, 12, 24, 17, 0)), tags: ["phone"], project: "family", priority: .high,
            notes: [TodoNote(text: "ask about the trip", addedAt: noon.addingTimeInterval(30.789))],
            wait: .moment(utc(2026, 12, 20, 8, 30))),
        TodoItem(
            id: TodoID(2), title: "water plants", createdAt: noon, due: .day(CalendarDay(year: 2026, month: 11, day: 20)),
            recurrence: try! Recurrence(.every(3, .day), countsFromCompletion: true)),
        TodoItem(id: TodoID(3), title: "gone soon", createdAt: noon),
    ]

    private func export(_ format: InterchangeFormat, _ items: [TodoItem]) -> String {
        ExportDocument(format: format, listID: listID, timeZone: .berlin, now: noon, version: "test")
            .text(of: items, itemsBefore: 0, isLast: true)
    }

    private func plan(_ text: String, _ format: InterchangeFormat, into collection: TodoCollection) throws -> ImportPlan {
        ImportPlan(try format.read(text, timeZone: .berlin), format: format, into: collection, listID: listID, at: Self.later, timeZone: .berlin)
    }

    @Test(arguments: InterchangeFormat.allCases)
    func anExportImportedBackChangesNothing(format: InterchangeFormat) throws {
        let collection = TodoCollection(items: Self.list, nextID: TodoID(4))
        let again = try plan(export(format, Self.list), format, into: collection)
        #expect(again.entries.map(\.action) == [.unchanged, .unchanged, .unchanged], "\(again.entries)")
        #expect(again.step == nil)
    }

    @Test(arguments: [InterchangeFormat.taskwarrior, .ical])
    func anItemDeletedHereComesBackOnceNotOnEveryImport(format: InterchangeFormat) throws {
        let text = export(format, Self.list)
        var collection = TodoCollection(items: Array(Self.list.prefix(2)), nextID: TodoID(4))  // 3 was deleted
        let first = try plan(text, format, into: collection)
        #expect(first.entries.map(\.action) == [.unchanged, .unchanged, .add])
        collection.apply(try #require(first.step))
        let second = try plan(text, format, into: collection)
        #expect(second.entries.map(\.action) == [.unchanged, .unchanged, .unchanged], "\(second.entries)")
    }

    @Test func aCalendarsUpperCaseUIDMeetsTaskwarriorsLowerCaseUUID() throws {
        let uid = "6A1F0B3C-2D4E-4F5A-8B9C-0D1E2F3A4B5C"
        let calendar = "BEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:from iCloud\r\nEND:VTODO\r\n"
        var collection = TodoCollection(items: [], nextID: TodoID(1))
        collection.apply(try #require(try plan(calendar, .ical, into: collection).step))
        let taskwarrior = export(.taskwarrior, collection.items.map { $0 })
        #expect(taskwarrior.contains(uid.lowercased()))
        #expect(try plan(taskwarrior, .taskwarrior, into: collection).entries.map(\.action) == [.unchanged])
        #expect(try plan(calendar, .ical, into: collection).entries.map(\.action) == [.unchanged])
    }

    @Test func aTodoTxtLineIsKnownAgainAfterItsTagsWereMadeValid() throws {
        let text = "call @phone:mobile @Home @home +garden.shed\n+garden @home\n(D) someday\n"
        var collection = TodoCollection(items: [], nextID: TodoID(1))
        collection.apply(try #require(try plan(text, .todotxt, into: collection).step))
        #expect(try plan(text, .todotxt, into: collection).entries.map(\.action) == [.unchanged, .unchanged, .unchanged])
        // A priority below C is the priority, not part of the line's identity.
        #expect(try plan("(E) someday\n", .todotxt, into: collection).entries.map(\.action) == [.update])
    }

    @Test func aRepeatingLineWithoutADueDateKeepsItsItemsDueDate() throws {
        let collection = TodoCollection(items: [Self.list[1]], nextID: TodoID(4))
        let again = try plan("water plants rec:3d\n", .todotxt, into: collection)
        #expect(again.entries.map(\.action) == [.unchanged], "\(again.entries)")
    }
}
