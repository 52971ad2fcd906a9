import Foundation
import Testing
import TodoModel
import TodoViewModels
import TodoViewState

/// Named views: saved, changed, removed, stored through the writes they
/// return (a restart brings them back), and taken back when a write fails.
@Suite struct NamedViewTests {
    let clock = TestClock()
    let viewModel: TodoListViewModel

    init() throws {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
        try viewModel.add(shorthand: "mow +home project:home")
        try viewModel.add(shorthand: "report project:work pri:H")
        try viewModel.add(shorthand: "gym")
    }

    private func definition(_ query: String, sort: ListSort = .created, grouping: ListGrouping? = nil) throws -> ViewDefinition {
        ViewDefinition(query: try Query.parse(query), sort: sort, grouping: grouping)
    }

    @Test func aSavedViewIsListedAndCanBeOpened() throws {
        let work = try definition("project:work or +home", sort: try ListSort(parsing: "priority,due-"))
        let outcome = try #require(try viewModel.saveView("work", work))
        #expect(outcome.changes.isEmpty)  // nobody watches a view that did not exist
        #expect(outcome.write?.viewSettings == ["work": ViewSettings(sort: work.sort, query: "project:work or +home")])
        #expect(viewModel.namedViews.map(\.name) == ["main", "work"])
        let named = try #require(viewModel.namedViews.last)
        #expect(named.definition == work)
        #expect(named.properties.totalCount == 2)
        #expect(try viewModel.openView(.shared("work")).rows.map(\.title) == ["report", "mow"])
    }

    @Test func savingAnotherDefinitionResetsTheViewForItsWatchers() throws {
        _ = try viewModel.saveView("work", try definition("project:work"))
        var watcher = try viewModel.openView(.shared("work"))
        let outcome = try #require(try viewModel.saveView("work", try definition("+home")))
        let change = try #require(outcome.changes[.shared("work")])
        guard case .reset(let rows)? = change.rowOperations.first, change.rowOperations.count == 1 else {
            Issue.record("expected a reset, got \(change.rowOperations)")
            return
        }
        #expect(rows.map(\.title) == ["mow"])
        #expect(change.changedKeys.contains("query"))
        watcher.apply(change)
        #expect(watcher == viewModel.state(of: .shared("work")))
        #expect(watcher.properties.query == "+home")
    }

    @Test func savingTheSameDefinitionAgainIsNothing() throws {
        let work = try definition("project:work")
        _ = try viewModel.saveView("work", work)
        #expect(try viewModel.saveView("work", work) == nil)
    }

    @Test func theMainViewCannotBeRemoved() {
        #expect(throws: TodoError.mainViewIsPermanent) { try viewModel.removeView("main") }
        #expect(viewModel.namedViews.map(\.name) == ["main"])
    }

    @Test func anUnknownViewIsNotFound() {
        #expect(throws: TodoError.viewNotFound("nope")) { try viewModel.removeView("nope") }
        #expect(throws: TodoError.viewNotFound("nope")) { try viewModel.openView(.shared("nope")) }
        #expect(throws: TodoError.viewNotFound("nope")) { try viewModel.setOptions(of: .shared("nope"), filter: .active) }
    }

    @Test(arguments: ["", "-work", "my view", "a/b", "@work", String(repeating: "v", count: ViewName.maximumLength + 1)])
    func anInvalidNameIsRefused(name: String) throws {
        let error = #expect(throws: TodoError.self) { try viewModel.saveView(name, try definition("+home")) }
        guard case .invalidViewName(name, _)? = error else {
            Issue.record("expected invalidViewName, got \(String(describing: error))")
            return
        }
        #expect(viewModel.namedViews.map(\.name) == ["main"])
    }

    @Test func aQueryThatCannotBeCompiledIsRefused() {
        #expect(throws: TodoError.self) { try viewModel.saveView("broken", ViewDefinition(query: .regex("("))) }
        #expect(viewModel.namedViews.map(\.name) == ["main"])
        #expect(viewModel.snapshot.viewSettings.isEmpty)
    }

    @Test func removingAViewWritesItsRemoval() throws {
        _ = try viewModel.saveView("work", try definition("project:work"))
        let outcome = try viewModel.removeView("work")
        #expect(outcome.write?.removedViews == ["work"])
        #expect(outcome.changes.isEmpty)
        #expect(viewModel.namedViews.map(\.name) == ["main"])
        #expect(throws: TodoError.viewNotFound("work")) { try viewModel.openView(.shared("work")) }
    }

    /// What a store would hold, folded from the writes: a view model started
    /// from it has the same named views, with the same rows and counters.
    @Test func theWritesRestoreTheSameViewsAfterARestart() throws {
        var stored = viewModel.snapshot
        let writes = [
            try viewModel.saveView("work", try definition("project:work", sort: try ListSort(parsing: "priority,title-")))?.write,
            try viewModel.saveView("home", try definition("+home or project:home", grouping: .project))?.write,
            try viewModel.saveView("gone", try definition("gym"))?.write,
            try viewModel.setOptions(of: .main, filter: .active, query: try Query.parse("not +home"))?.write,
            try viewModel.setOptions(of: .shared("work"), grouping: .some(.project))?.write,
            try viewModel.removeView("gone").write,
        ]
        for write in writes { stored.apply(try #require(write)) }
        #expect(stored == viewModel.snapshot)

        let restarted = TodoListViewModel(snapshot: stored, clock: clock.todoClock)
        #expect(restarted.namedViews == viewModel.namedViews)
        #expect(restarted.namedViews.map(\.name) == ["home", "main", "work"])
        for name in ["home", "main", "work"] {
            #expect(try restarted.openView(.shared(name)) == viewModel.state(of: .shared(name)))
        }
    }

    @Test func revertingAFailedSaveRestoresThePreviousDefinition() throws {
        let first = try definition("project:work")
        _ = try viewModel.saveView("work", first)
        let stored = viewModel.snapshot
        let before = try viewModel.openView(.shared("work"))

        let failed = try #require(try viewModel.saveView("work", try definition("+home", grouping: .project)))
        viewModel.revert(try #require(failed.applied))
        #expect(viewModel.snapshot == stored)
        #expect(viewModel.state(of: .shared("work")) == before)
        #expect(viewModel.namedViews.first { $0.name == "work" }?.definition == first)
    }

    @Test func revertingAFailedFirstSaveOrRemovalUndoesIt() throws {
        let stored = viewModel.snapshot
        let created = try #require(try viewModel.saveView("work", try definition("project:work")))
        viewModel.revert(try #require(created.applied))
        #expect(viewModel.namedViews.map(\.name) == ["main"])
        #expect(viewModel.snapshot == stored)

        _ = try viewModel.saveView("work", try definition("project:work"))
        let kept = viewModel.snapshot
        let state = try viewModel.openView(.shared("work"))
        let removed = try viewModel.removeView("work")
        viewModel.revert(try #require(removed.applied))
        #expect(viewModel.snapshot == kept)
        #expect(viewModel.state(of: .shared("work")) == state)
    }
}
