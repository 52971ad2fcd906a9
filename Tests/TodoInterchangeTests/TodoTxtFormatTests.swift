import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

@Suite struct TodoTxtFormatTests {
    @Test func readsEveryPartOfALine() throws {
        let text = "(A) 2026-11-20 Call Mom +family @phone due:2026-11-25 t:2026-11-24 wait:2026-11-23 rec:+1w see:http://x\n"
        let item = try #require(try TodoTxtFormat.read(text, timeZone: .berlin).items.first)
        #expect(item.title == "Call Mom see:http://x")
        #expect(item.priority == .high)
        #expect(item.project == "family")
        #expect(item.tags == ["phone"])
        #expect(item.due == .day(CalendarDay(year: 2026, month: 11, day: 25)))
        // The threshold `t:` is `scheduled`; the wait date is todod's own `wait:`.
        #expect(item.values == ["scheduled": .date(.day(CalendarDay(year: 2026, month: 11, day: 24)))])
        #expect(item.wait == .day(CalendarDay(year: 2026, month: 11, day: 23)))
        #expect(item.recurrence == .weekly)
        #expect(item.createdAt == CalendarDay(year: 2026, month: 11, day: 20).start(in: .berlin))
        #expect(item.source == "line 1")
    }

    @Test func doneLinesAndWindowsLineEnds() throws {
        let text = "x 2026-11-21 2026-11-20 file taxes +money pri:B\r\n\r\nx 2026-11-21 plain\r\n"
        let batch = try TodoTxtFormat.read(text, timeZone: .berlin)
        #expect(batch.items.count == 2)
        let taxes = batch.items[0]
        #expect(taxes.isDone)
        #expect(taxes.completedAt == CalendarDay(year: 2026, month: 11, day: 21).start(in: .berlin))
        #expect(taxes.createdAt == CalendarDay(year: 2026, month: 11, day: 20).start(in: .berlin))
        #expect(taxes.priority == .medium)
        #expect(batch.items[1].source == "line 3")
        #expect(batch.items[1].title == "plain")
    }

    /// A repetition todod cannot read stays in the title, as other add-ons
    /// it does not read do: written back, nothing is lost.
    @Test func aRepetitionTodoCannotReadStaysInTheTitle() throws {
        let item = try #require(try TodoTxtFormat.read("water plants rec:3x due:2026-12-01\n", timeZone: .berlin).items.first)
        #expect(item.title == "water plants rec:3x")
        #expect(item.recurrence == nil)
        #expect(item.remarks == ["rec:3x kept in the title: todod cannot repeat that way"])
    }

    @Test func priorityBelowCIsKeptAsATag() throws {
        let item = try #require(try TodoTxtFormat.read("(D) someday maybe", timeZone: .berlin).items.first)
        #expect(item.priority == nil)
        #expect(item.tags == ["pri-D"])
        #expect(item.remarks == ["priority (D) kept as tag pri-D (todod has three priorities, H, M and L, which todo.txt writes as A, B and C)"])
    }

    @Test func aLineIsKnownAgainWhateverItsDatesPriorityAndOrder() {
        func identity(_ line: String) -> String? {
            guard case .line(let identity)? = try? TodoTxtFormat.read(line, timeZone: .berlin).items.first?.identity else { return nil }
            return identity
        }
        let first = identity("(A) 2026-11-20 Call +family Mom @phone due:2026-11-25")
        #expect(first == identity("x 2026-11-22 2026-11-20 Call Mom @Phone +family due:2026-12-01 rec:1m"))
        #expect(first != identity("Call Dad +family @phone"))
        let item = TodoItem(id: TodoID(1), title: "Call Mom", createdAt: noon, tags: ["phone"], project: "family")
        #expect(first == TodoTxtFormat.identity(of: item))
    }

    @Test func twoSameLinesAreTwoItems() throws {
        let batch = try TodoTxtFormat.read("water plants\nwater plants\n", timeZone: .berlin)
        #expect(batch.items.map(\.identity) == [.line("water plants"), .line("water plants#2")])
    }

    @Test func aBadDateNamesTheLine() {
        #expect(throws: ImportProblem(location: "line 2", message: "due:friday is not a date (write YYYY-MM-DD)")) {
            try TodoTxtFormat.read("fine\nnot fine due:friday\n", timeZone: .berlin)
        }
    }

    @Test(arguments: [
        ("+1w", "weekly"), ("1w", "weekly from completion"), ("+2m", "every 2 months"), ("3d", "every 3 days from completion"),
        ("+1y", "yearly"), ("+1b", "weekdays"),
    ])
    func repetitions(text: String, expected: String) {
        #expect(TodoTxtFormat.recurrence(Substring(text))?.text == expected)
    }
}
