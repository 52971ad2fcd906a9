import Foundation
import TestSupport
import Testing
import TodoModel
import TodoViewModels
import TodoViewState

/// `depends`: rows say blocked and blocking, urgency counts both, the
/// queries find them, completing the last blocker unblocks in every view,
/// a cycle or a missing item is refused naming it, and removing an item
/// takes it out of the others' `depends` in the same undo step.
@Suite struct DependencyTests {
    let clock = TestClock()
    let viewModel: TodoListViewModel

    init() {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
    }

    private func row(_ id: TodoID) -> TodoRow? {
        viewModel.main.rows.first { $0.id == id.rawValue }
    }

    @Test func rowsSayWhatBlocksAndWhatIsBlocked() throws {
        let paint = try viewModel.add(shorthand: "buy paint")
        let brushes = try viewModel.add(shorthand: "buy brushes")
        let wall = try viewModel.add(shorthand: "paint the wall depends:\(paint),\(brushes)")
        #expect(row(wall)?.blocked == true)
        #expect(row(wall)?.blocking == nil)
        #expect(row(paint)?.blocking == true)
        #expect(row(paint)?.blocked == nil)
        #expect(row(wall)?.values?["depends"] == .ids([paint.rawValue, brushes.rawValue]))
        #expect(row(wall)?.valueTexts?["depends"] == "Depends on: \(paint), \(brushes)")
        #expect(row(wall)?.fieldsText.contains("Depends on: \(paint), \(brushes)") == true)
    }

    @Test func urgencyAddsEightForBlockingAndTakesFiveForBlocked() throws {
        let first = try viewModel.add(shorthand: "first")
        let second = try viewModel.add(shorthand: "second")
        let alone = try viewModel.add(shorthand: "alone")
        try viewModel.perform(.modify(second, "depends:\(first)"))
        let view = ViewID.own(1)
        let rows = try viewModel.openView(view, definition: ViewDefinition(sort: .urgency)).rows
        #expect(rows.map(\.id) == [first, alone, second].map(\.rawValue))
        let details = try viewModel.details(of: first)
        let plain = try viewModel.details(of: alone)
        func urgency(_ lines: [String]) -> Double? { lines.first { $0.hasPrefix("urgency") }.flatMap { Double($0.split(separator: " ").last!) } }
        #expect(urgency(details.lines)! - urgency(plain.lines)! == 8)
        #expect(details.lines.contains("blocking    \(second)"))
        #expect(try viewModel.details(of: second).lines.contains("blocked     by \(first)"))
    }

    @Test func completingTheLastBlockerUnblocksInEveryView() throws {
        let a = try viewModel.add(shorthand: "a")
        let b = try viewModel.add(shorthand: "b")
        let c = try viewModel.add(shorthand: "c depends:\(a),\(b)")
        let blocked = ViewID.own(1)
        let ready = ViewID.own(2)
        var blockedState = try viewModel.openView(blocked, definition: ViewDefinition(query: try Query.parse("blocked")))
        var readyState = try viewModel.openView(ready, definition: ViewDefinition(query: try Query.parse("not blocked"), sort: .urgency))
        #expect(blockedState.rows.map(\.id) == [c.rawValue])

        var outcome = try viewModel.perform(.setDone(a, true))
        if let change = outcome.changes[blocked] { blockedState.apply(change) }
        if let change = outcome.changes[ready] { readyState.apply(change) }
        #expect(blockedState.rows.map(\.id) == [c.rawValue], "b still blocks c")
        outcome = try viewModel.perform(.setDone(b, true))
        if let change = outcome.changes[blocked] { blockedState.apply(change) }
        if let change = outcome.changes[ready] { readyState.apply(change) }
        #expect(readyState == viewModel.state(of: ready))
        #expect(blockedState.rows.isEmpty)
        #expect(blockedState == viewModel.state(of: blocked))
        #expect(viewModel.state(of: ready)!.rows.contains { $0.id == c.rawValue && $0.blocked == nil })
        #expect(blockedState.properties.itemsLeft == "0 items left")
    }

    @Test func blockingFindsWhatOthersWaitFor() throws {
        let a = try viewModel.add(shorthand: "a")
        _ = try viewModel.add(shorthand: "b depends:\(a)")
        _ = try viewModel.add(shorthand: "c")
        let rows = try viewModel.openView(.own(1), definition: ViewDefinition(query: try Query.parse("blocking"))).rows
        #expect(rows.map(\.id) == [a.rawValue])
        let dependsOn = try viewModel.openView(.own(2), definition: ViewDefinition(query: try Query.parse("depends:\(a)"))).rows
        #expect(dependsOn.map(\.title) == ["b"])
    }

    @Test func aCycleIsRefusedNamingItAndNothingChanges() throws {
        let a = try viewModel.add(shorthand: "a")
        let b = try viewModel.add(shorthand: "b depends:\(a)")
        let c = try viewModel.add(shorthand: "c depends:\(b)")
        let before = viewModel.snapshot
        #expect(throws: TodoError.inWord(ShorthandWord("depends:\(c)", at: 0), .invalidLink(field: "depends", problem: .cycle([a, c, b, a])))) {
            try viewModel.perform(.modify(a, "depends:\(c)"))
        }
        #expect(throws: TodoError.inWord(ShorthandWord("depends:\(a)", at: 0), .invalidLink(field: "depends", problem: .itself(a)))) {
            try viewModel.perform(.modify(a, "depends:\(a)"))
        }
        #expect(throws: TodoError.inWord(ShorthandWord("depends:99", at: 6), .invalidLink(field: "depends", problem: .missing(TodoID(99))))) {
            try viewModel.perform(.modify(a, "pri:H depends:99"))
        }
        #expect(viewModel.snapshot == before)
        let message = TodoError.invalidLink(field: "depends", problem: .cycle([a, c, b, a])).description
        #expect(message.contains("\(a) → \(c) → \(b) → \(a)"), "\(message)")
    }

    @Test func ofTwoWordsForOneLinkTheOneToBlameIsNamed() throws {
        let a = try viewModel.add(shorthand: "a")
        let b = try viewModel.add(shorthand: "b")
        #expect(throws: TodoError.inWord(ShorthandWord("depends:99", at: 16), .invalidLink(field: "depends", problem: .missing(TodoID(99))))) {
            try viewModel.perform(.modify(a, "pri:H depends:\(b) depends:99"))
        }
        #expect(throws: TodoError.inWord(ShorthandWord("depends:99", at: 0), .invalidLink(field: "depends", problem: .missing(TodoID(99))))) {
            try viewModel.perform(.modify(a, "depends:99 depends:\(b)"))
        }
    }

    @Test func dependsAddsAndAMinusTakesAway() throws {
        let a = try viewModel.add(shorthand: "a")
        let b = try viewModel.add(shorthand: "b")
        let c = try viewModel.add(shorthand: "c depends:\(a)")
        try viewModel.perform(.modify(c, "depends:\(b)"))
        #expect(viewModel.item(c)?.depends == [a, b])
        try viewModel.perform(.modify(c, "depends:-\(a)"))
        #expect(viewModel.item(c)?.depends == [b])
        try viewModel.perform(.modify(c, "depends:"))
        #expect(viewModel.item(c)?.depends == [])
        #expect(throws: TodoError.self) { try viewModel.perform(.modify(c, "depends:x")) }
    }

    @Test func removingAnItemTakesItOutOfTheOthersInOneUndoStep() throws {
        let a = try viewModel.add(shorthand: "a")
        let b = try viewModel.add(shorthand: "b depends:\(a)")
        let c = try viewModel.add(shorthand: "c depends:\(a),\(b)")
        let outcome = try viewModel.perform(.delete(a))
        #expect(viewModel.item(b)?.depends == [])
        #expect(viewModel.item(c)?.depends == [b])
        #expect(outcome.write?.changes.count == 3)
        #expect(row(b)?.blocking == true)
        try viewModel.perform(.undo)
        #expect(viewModel.item(a) != nil)
        #expect(viewModel.item(b)?.depends == [a])
        #expect(viewModel.item(c)?.depends == [a, b])
        #expect(row(b)?.blocked == true)
    }

    @Test func clearingCompletedItemsTakesThemOutOfDepends() throws {
        let a = try viewModel.add(shorthand: "a")
        let b = try viewModel.add(shorthand: "b depends:\(a)")
        try viewModel.perform(.setDone(a, true))
        try viewModel.perform(.clearCompleted)
        #expect(viewModel.item(b)?.depends == [])
    }

    @Test func anItemDependsOnAtMostAHundredItems() throws {
        var ids: [TodoID] = []
        for index in 0...FieldKind.maximumLinks { ids.append(try viewModel.add(shorthand: "item \(index)")) }
        let waiting = try viewModel.add(shorthand: "waiting")
        try viewModel.perform(.modify(waiting, "depends:" + ids.prefix(FieldKind.maximumLinks).map(\.description).joined(separator: ",")))
        #expect(viewModel.item(waiting)?.depends.count == FieldKind.maximumLinks)
        #expect(throws: TodoError.inWord(ShorthandWord("depends:\(ids.last!)", at: 0), .invalidLink(field: "depends", problem: .tooMany(maximum: FieldKind.maximumLinks)))) {
            try viewModel.perform(.modify(waiting, "depends:\(ids.last!)"))
        }
    }

    @Test func aLongCycleIsNamedByItsEnds() {
        let cycle = (1...50).map { TodoID(Int64($0)) } + [TodoID(1)]
        let message = TodoError.invalidLink(field: "depends", problem: .cycle(cycle)).description
        #expect(message.contains("1 → 2 → 3"))
        #expect(message.contains("(31 more)"), "\(message)")
        #expect(message.contains("49 → 50 → 1;"))
    }
}
