import Foundation
import TestSupport
import Testing
import TodoModel
@testable import TodoViewModels
import TodoViewState

/// Which properties an edit changed is found from what they are made from
/// (`PropertyParts.changedKeys(since:)`); it must say exactly what comparing
/// every property of the two made `TodoListProperties` says.
@Suite struct PropertyPartsTests {
    @Test func thePartsFindTheKeysComparingThePropertiesFinds() throws {
        var random = SeededRandom(seed: 32)
        var keysSeen: Set<String> = []
        for _ in 0..<4_000 {
            let old = try Self.randomParts(&random)
            // A new state mostly like the old one, as after an edit: each
            // part kept or drawn again.
            var new = old
            if Bool.random(using: &random) { new = try Self.randomParts(&random) }
            let fresh = try Self.randomParts(&random)
            if Int.random(in: 0..<3, using: &random) == 0 { new.definition = fresh.definition }
            if Int.random(in: 0..<3, using: &random) == 0 { new.queryText = fresh.queryText }
            if Int.random(in: 0..<2, using: &random) == 0 { new.counts = fresh.counts }
            if Int.random(in: 0..<3, using: &random) == 0 { new.isEmpty = fresh.isEmpty }
            if Int.random(in: 0..<3, using: &random) == 0 { new.itemCount = fresh.itemCount }
            if Int.random(in: 0..<2, using: &random) == 0 { new.shared = fresh.shared }
            let expected = new.properties.changedKeys(since: old.properties)
            #expect(new.changedKeys(since: old) == expected)
            keysSeen.formUnion(expected)
        }
        // Every property changed at least once, so each one's rule was checked.
        #expect(keysSeen == Set(TodoListProperties.names))
        #expect(TodoListProperties.declarations.count <= 64, "the changed keys are a 64-bit set")
    }

    @Test func unchangedPartsChangeNothing() throws {
        var random = SeededRandom(seed: 7)
        for _ in 0..<200 {
            let parts = try Self.randomParts(&random)
            #expect(parts.changedKeys(since: parts).isEmpty)
        }
    }

    /// Parts drawn from small sets of values, so that two draws are often equal.
    static func randomParts(_ random: inout SeededRandom) throws -> PropertyParts {
        func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }
        let queries = ["", "+home", "due:today", "status:completed"]
        let queryText = pick(queries)
        let definition = ViewDefinition(
            filter: pick(ListFilter.allCases), query: try Query.parse(queryText), sort: pick(ListSort.presets),
            grouping: pick([nil, ListGrouping.project]))
        var counts = ViewCounts()
        counts.total = pick([0, 1, 2, 5])
        counts.completed = min(counts.total, pick([0, 1, 2]))
        counts.overdue = pick([0, 1, 3])
        counts.dueToday = pick([0, 1, 2])
        counts.tags = pick([[], [NameCount(name: "home", count: 1)], [NameCount(name: "home", count: 2)]])
        counts.projects = pick([[], [NameCount(name: "work", count: 1)]])
        let alert = ReminderAlert(id: 1, condition: .overdue, message: "“a” is overdue")
        let reminder = DesktopReminder(id: 1, condition: .overdue, summary: "a", body: "overdue", urgency: .normal)
        let shared = TodoListViewModel.SharedProperties(
            allDone: pick([false, true]), canClearCompleted: pick([false, true]),
            undoText: pick([nil, "Undo add “a”", "Undo add “b”"]), redoText: pick([nil, "Redo add “a”"]),
            alerts: pick([[], [alert]]), alertCount: pick([0, 1, 21]), desktopReminders: pick([[], [reminder]]))
        return PropertyParts(
            definition: definition, queryText: queryText, counts: counts, isEmpty: pick([false, true]),
            itemCount: pick([0, 1, 3]), shared: shared)
    }
}
