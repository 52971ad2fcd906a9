import Foundation
import TestSupport
import Testing
import TodoModel
import TodoViewModels
import TodoViewState

/// The seeded model-based test of `ChangeSetTests`, with trees and
/// dependencies: random adds under parents and with dependencies, moves
/// between parents, completions that cascade, removals of whole subtrees,
/// undo and redo, and commands refused for making a cycle. After every
/// command each client's state plus its change set equals the view's
/// state, the write describes memory, and every few steps each view opened
/// afresh (sorted and arranged from scratch) shows what the view kept up
/// to date edit by edit shows. The list's invariants hold throughout: no
/// link to a missing item, no cycle, no done parent over an open subtask.
@Suite struct LinkedChangeSetTests {
    @Test(arguments: [21, 22, 23, 24, 25, 26, 27, 28])
    func linkedViewsKeptUpToDateEqualFreshOnes(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let clock = TestClock()
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        let definitions: [ViewID: ViewDefinition] = [
            .own(1): ViewDefinition(query: try Query.parse("+work"), sort: .title),
            .own(2): ViewDefinition(filter: .active, sort: .urgency),
            .own(3): ViewDefinition(query: try Query.parse("blocked or blocking"), sort: try ListSort(parsing: "priority,title-")),
            .own(4): ViewDefinition(sort: .title, grouping: .project),
            .own(5): ViewDefinition(query: try Query.parse("not +work"), sort: .urgency, flat: true),
            .own(7): ViewDefinition(query: try Query.parse("overdue"), sort: .due),
            .own(6): ViewDefinition(filter: .completed, sort: try ListSort(parsing: "modified-")),
        ]
        for (id, definition) in definitions { try viewModel.openView(id, definition: definition) }
        let views = [ViewID.main] + definitions.keys.sorted { "\($0)" < "\($1)" }
        var clientStates = Dictionary(uniqueKeysWithValues: views.map { ($0, viewModel.state(of: $0)!) })
        var stored = viewModel.snapshot
        let titles = ["milk", "paint", "wall", "roof", "item 2", "item 10", "Äpfel"]
        // Due moments a few hours ahead turn overdue at the ticks below.
        let edits = [
            "+work", "-work", "pri:H", "pri:", "project:home", "project:", "due:fri", "due:", #"due:"today 13:00""#,
            #"due:"today 15:00""#, #"due:"today 17:00""#,
            // A repeating parent brings copies of its subtasks back when completed.
            "recur:weekly", "recur:",
        ]
        var refusedCycles = 0
        var deepestTree = 0
        var repeatedSubtrees = 0

        for step in 0..<300 {
            let ids = viewModel.snapshot.items.map(\.id)
            func someID() -> TodoID { ids.randomElement(using: &random) ?? TodoID(1) }
            func openRepeatingParents() -> [TodoID] {
                let parents = Set(viewModel.snapshot.items.compactMap(\.parent))
                return viewModel.snapshot.items.filter { $0.recurrence != nil && !$0.isDone && parents.contains($0.id) }.map(\.id)
            }
            let title = titles.randomElement(using: &random)!
            let command: TodoCommand =
                switch Int.random(in: 0..<20, using: &random) {
                case 0: .addText("\(title) \(edits.randomElement(using: &random)!)")
                case 1: .addText("\(title) recur:daily")
                case 2, 3: .addText("\(title) parent:\(someID())")
                case 4: .addText("\(title) depends:\(someID())")
                case 5, 16, 17: .modify(someID(), "parent:\(someID())")
                case 6: .modify(someID(), "parent:")
                case 7, 18, 19: .modify(someID(), "depends:\(someID())")
                case 8: .modify(someID(), "depends:-\(someID())")
                case 9: .modify(someID(), edits.randomElement(using: &random)!)
                case 10: .setDone(someID(), Bool.random(using: &random))
                // An open repeating parent, completed: its subtasks come back copied.
                case 11: .setDone(openRepeatingParents().randomElement(using: &random) ?? someID(), true)
                case 12: .delete(someID())
                case 13: Bool.random(using: &random) ? .clearCompleted : .toggleAll
                case 14: .undo
                default: .redo
                }
            if step % 15 == 14 {
                // Time passes: subtasks turn overdue, with the paths above them.
                clock.advance(by: 1_800)
                let ticked = viewModel.tick()
                if let write = ticked.write { stored.apply(write) }
                for view in views {
                    if let change = ticked.changes[view] { clientStates[view]!.apply(change) }
                    #expect(clientStates[view] == viewModel.state(of: view), "view \(view) after a tick at step \(step)")
                }
            }
            let outcome: CommandOutcome
            do {
                outcome = try viewModel.perform(command)
            } catch {
                if case .invalidLink(_, .cycle) = error.withoutWord { refusedCycles += 1 }
                #expect(viewModel.snapshot == stored, "a refused \(command) changed memory")
                continue
            }
            if let write = outcome.write { stored.apply(write) }
            #expect(viewModel.snapshot == stored, "the write of \(command) does not describe its change")
            for view in views {
                if let change = outcome.changes[view] { clientStates[view]!.apply(change) }
                #expect(clientStates[view] == viewModel.state(of: view), "view \(view) after \(command) at step \(step)")
            }
            try expectInvariants(viewModel.snapshot.items, after: command)
            deepestTree = max(deepestTree, viewModel.main.rows.map { $0.depth ?? 0 }.max() ?? 0)
            if case .setDone(_, true) = command, viewModel.snapshot.history.nextUndo?.description.contains(", with ") == true {
                repeatedSubtrees += 1
            }
            if step % 10 == 9 {
                for (id, definition) in definitions {
                    let fresh = try viewModel.openView(.own(100), definition: definition)
                    viewModel.closeView(.own(100))
                    #expect(fresh == viewModel.state(of: id)!, "view \(id) arranged afresh after \(command) at step \(step)")
                }
                let main = try viewModel.openView(.own(100), definition: ViewDefinition())
                viewModel.closeView(.own(100))
                #expect(main.rows == viewModel.main.rows)
            }
        }
        // The run did make trees and refuse cycles, or it tested little.
        #expect(deepestTree >= 2)
        #expect(refusedCycles > 0)
        #expect(repeatedSubtrees > 0)
    }

    /// No link to a missing item or to itself, no cycle of parents or of
    /// dependencies, and no done item over an open subtask.
    private func expectInvariants(_ items: [TodoItem], after command: TodoCommand) throws {
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        for item in items {
            for target in item.depends { #expect(byID[target] != nil && target != item.id, "\(item.id) depends on \(target) after \(command)") }
            var seen: Set<TodoID> = [item.id]
            var parent = item.parent
            while let id = parent {
                let ancestor = try #require(byID[id], "\(item.id)'s parent \(id) is missing after \(command)")
                #expect(seen.insert(id).inserted, "a cycle of parents through \(item.id) after \(command)")
                if !item.isDone { #expect(!ancestor.isDone, "open \(item.id) under done \(id) after \(command)") }
                if seen.count > items.count { break }
                parent = ancestor.parent
            }
            var frontier = item.depends
            var reached: Set<TodoID> = []
            while let next = frontier.popLast() {
                #expect(next != item.id, "a cycle of dependencies through \(item.id) after \(command)")
                if next == item.id { break }
                if reached.insert(next).inserted { frontier += byID[next]?.depends ?? [] }
            }
        }
    }
}
