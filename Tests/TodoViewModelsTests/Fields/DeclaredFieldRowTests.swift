import Foundation
import Testing
import TodoModel
import TodoViewModels

/// Declared fields through the view model: set by shorthand, carried by
/// rows raw and worded, listed by `show`, kept when their declaration goes.
@Suite struct DeclaredFieldRowTests {
    /// Sunday 2026-11-22 12:00 in Berlin: `mon` is the 23rd.
    let clock = TestClock()
    let catalog = try! FieldCatalog(userDefined: [
        FieldDeclaration(name: "estimate", label: "Estimate", kind: .number),
        FieldDeclaration(name: "effort", label: "Effort", kind: .duration),
        FieldDeclaration(name: "size", label: "Size", kind: .text, allowedValues: ["S", "M", "L"]),
    ])

    func viewModel() -> TodoListViewModel {
        TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock, fields: catalog)
    }

    @Test func rowsCarryEachValueRawAndWorded() throws {
        let viewModel = viewModel()
        let row = try #require(
            try viewModel.perform(.addText("plan trip sch:mon until:2026-12-24 estimate:2.5 effort:1h30min size:m pri:H")).row)
        #expect(row.title == "plan trip")
        #expect(
            row.values == [
                "scheduled": .text("2026-11-23"), "until": .text("2026-12-24"), "estimate": .number(2.5),
                "effort": .text("PT1H30M"), "size": .text("M"),
            ])
        #expect(
            row.valueTexts == [
                "scheduled": "scheduled tomorrow", "until": "until 2026-12-24", "estimate": "Estimate: 2.5",
                "effort": "Effort: 1h 30min", "size": "Size: M",
            ])
        // In the catalog's order, after the item's own fields.
        #expect(row.fieldsText == "H · scheduled tomorrow · until 2026-12-24 · Estimate: 2.5 · Effort: 1h 30min · Size: M")
    }

    @Test func anItemWithoutValuesHasNoValueKeys() throws {
        let row = try #require(try viewModel().perform(.addText("plain")).row)
        #expect(row.values == nil)
        #expect(row.valueTexts == nil)
        let json = String(decoding: try JSONEncoder().encode(row), as: UTF8.self)
        #expect(!json.contains("values") && !json.contains("valueTexts"))
    }

    @Test func modifyChangesAndClearsAValueAndRecordsWhen() throws {
        let viewModel = viewModel()
        let id = try viewModel.add(shorthand: "plan estimate:3")
        clock.advance(by: 60)
        _ = try viewModel.perform(.modify(id, "estimate:5 size:S"))
        #expect(viewModel.item(id)?.values == ["estimate": .number(5), "size": .text("S")])
        #expect(viewModel.item(id)?.fieldChangedAt[ItemField(rawValue: "estimate")] == clock.now)
        _ = try viewModel.perform(.modify(id, "estimate:"))
        #expect(viewModel.item(id)?.values == ["size": .text("S")])
        // Cleared, its change is still told.
        #expect(try viewModel.details(of: id).changes.map(\.field) == ["estimate", "size"])
        #expect(throws: TodoError.self) { try viewModel.perform(.modify(id, "size:XL")) }
        #expect(viewModel.item(id)?.values == ["size": .text("S")])
    }

    @Test func showListsEachFieldByItsLabel() throws {
        let viewModel = viewModel()
        let id = try viewModel.add(shorthand: "plan sch:mon estimate:3")
        let lines = try viewModel.details(of: id).lines
        #expect(lines.contains("scheduled   Monday 23 November (tomorrow)"))
        #expect(lines.contains("Estimate    3"))
    }

    @Test func aRemovedDeclarationKeepsItsValuesShownRawAndARenewedOneRewordsThem() throws {
        let viewModel = viewModel()
        let id = try viewModel.add(shorthand: "plan effort:2h")
        let outcome = viewModel.replaceFields(.builtIn)
        // Every open view is sent again, with the value now an orphan.
        #expect(!outcome.changes.isEmpty)
        #expect(viewModel.item(id)?.values == ["effort": .duration(7200)])
        let orphan = try #require(viewModel.main.rows.first)
        #expect(orphan.values == ["effort": .text("PT2H")])
        #expect(orphan.valueTexts == ["effort": "effort: PT2H"])
        #expect(try viewModel.details(of: id).lines.contains("effort (not declared) 2h"))
        // Undeclared, it cannot be set.
        #expect(throws: TodoError.self) { try viewModel.perform(.modify(id, "effort:3h")) }
        _ = viewModel.replaceFields(catalog)
        #expect(viewModel.main.rows.first?.valueTexts == ["effort": "Effort: 2h"])
    }

    @Test func aRepeatingItemStopsAtItsUntilAndItsScheduledDateMovesAlong() throws {
        let viewModel = viewModel()
        // Due Friday the 27th weekly, scheduled two days before, until 10 December.
        let id = try viewModel.add(shorthand: "report due:fri sch:wed recur:weekly until:2026-12-10")
        _ = try viewModel.perform(.setDone(id, true))
        let second = try #require(viewModel.snapshot.items.first { $0.id != id && !$0.isDone })
        #expect(second.due == .day(calendarDay(2026, 12, 4)))
        #expect(second.scheduled == .day(calendarDay(2026, 12, 2)))
        #expect(second.until == .day(calendarDay(2026, 12, 10)))
        // The next would be due on the 11th, after the until: none comes.
        let count = viewModel.snapshot.items.count
        _ = try viewModel.perform(.setDone(second.id, true))
        #expect(viewModel.snapshot.items.count == count)
    }
}

/// `until` in the views: an item that is not done leaves the default views
/// when it expires, at the tick its expiry asks for, and stays in view
/// with a status query.
@Suite struct UntilExpiryTests {
    @Test func anExpiredItemLeavesTheViewsThatNameNoStatusAtItsTick() throws {
        let clock = TestClock()  // Sunday 22 November 2026, 12:00 Berlin
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        let id = try viewModel.add(shorthand: "offer ends until:\"today 18:00\"")
        try viewModel.add(shorthand: "stays")
        #expect(viewModel.ids(of: .main).contains(id.rawValue))
        // The expiry is the next time event, and the tick then hides it.
        #expect(viewModel.nextEvent == wallClock(2026, 11, 22, 18))
        clock.set(to: wallClock(2026, 11, 22, 18))
        let outcome = viewModel.tick()
        #expect(!outcome.changes.isEmpty)
        #expect(!viewModel.ids(of: .main).contains(id.rawValue))
        #expect(viewModel.main.rows.count == 1)
        // A status query still finds it, and show says it has expired.
        try viewModel.openView(.own(1), definition: ViewDefinition(query: try Query.parse("status:all")))
        #expect(viewModel.ids(of: .own(1)).contains(id.rawValue))
        try viewModel.openView(.own(2), definition: ViewDefinition(query: try Query.parse("status:expired")))
        #expect(viewModel.ids(of: .own(2)) == [id.rawValue])
        try viewModel.openView(.own(3), definition: ViewDefinition(query: try Query.parse("status:pending")))
        #expect(!viewModel.ids(of: .own(3)).contains(id.rawValue))
        #expect(viewModel.ids(of: .own(3)).count == 1)
        #expect(try viewModel.details(of: id).lines.contains("status      expired"))
    }

    @Test func anExpiredItemRaisesNoReminder() throws {
        let clock = TestClock()  // Sunday 22 November 2026, 12:00 Berlin
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        // Overdue at 13:00, but expired at the end of yesterday.
        try viewModel.add(shorthand: "missed due:\"today 13:00\" until:yesterday")
        let reminded = try viewModel.add(shorthand: "kept due:\"today 13:00\"")
        clock.set(to: wallClock(2026, 11, 22, 13))
        _ = viewModel.tick()
        #expect(viewModel.main.properties.alerts.map(\.id) == [reminded.rawValue])
    }
}
