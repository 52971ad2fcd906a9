import Foundation
import TestSupport
import Testing
import TodoModel
import TodoViewModels

/// Two instances of one shared list, in-process: what one stores, the other
/// applies (`applyStored`), and both then hold and show the same list.
@Suite struct SharedListTests {
    /// Two view models started from one snapshot, named as instances are.
    static func pair(clock: TestClock) -> (laptop: TodoListViewModel, desktop: TodoListViewModel) {
        let snapshot = ListSnapshot(listID: "5f0c6a2e-4d1b-4f7e-9a51-2b7c1d9e8f00")
        let laptop = TodoListViewModel(snapshot: snapshot, clock: clock.todoClock)
        let desktop = TodoListViewModel(snapshot: snapshot, clock: clock.todoClock)
        laptop.origin = "laptop"
        desktop.origin = "desktop"
        return (laptop, desktop)
    }

    @Test func anEditStoredByOneInstanceShowsOnTheOtherWithItsOrigin() throws {
        let (laptop, desktop) = Self.pair(clock: TestClock())
        let outcome = try laptop.perform(.addText("pay rent +home due:tomorrow"))
        #expect(outcome.description == "add “pay rent”", "the instance that made it says nothing of itself")
        #expect(laptop.main.properties.undoText == "Undo add “pay rent”")
        let applied = desktop.applyStored(try #require(outcome.write))
        #expect(desktop.main.rows.map(\.title) == ["pay rent"])
        #expect(desktop.main.rows == laptop.main.rows)
        #expect(desktop.main.properties.undoText == "Undo add “pay rent” (from laptop)")
        #expect(applied.changes[.main]?.changedKeys.contains("itemsLeft") == true)
        #expect(desktop.snapshot == laptop.snapshot)
    }

    @Test func undoOnEitherInstanceTakesBackTheListsLastStepWhoeverMadeIt() throws {
        let (laptop, desktop) = Self.pair(clock: TestClock())
        let added = try laptop.perform(.add(title: "call mum", due: nil))
        desktop.applyStored(try #require(added.write))
        let undone = try desktop.perform(.undo)
        #expect(undone.description?.hasPrefix("undid: add “call mum” (from laptop)") == true, "\(undone.description ?? "")")
        laptop.applyStored(try #require(undone.write))
        #expect(laptop.main.rows.isEmpty && desktop.main.rows.isEmpty)
        // Each instance words the step as its own or as another's.
        #expect(laptop.main.properties.redoText == "Redo add “call mum”")
        #expect(desktop.main.properties.redoText == "Redo add “call mum” (from laptop)")
        let redone = try laptop.perform(.redo)
        desktop.applyStored(try #require(redone.write))
        #expect(desktop.main.rows.map(\.title) == ["call mum"])
        #expect(desktop.snapshot == laptop.snapshot)
    }

    @Test func namedViewsRemindersAndRemovalsTravelToo() throws {
        let clock = TestClock()
        let (laptop, desktop) = Self.pair(clock: clock)
        for text in ["water plants +garden", "mow +garden", "call bank"] {
            desktop.applyStored(try #require(laptop.perform(.addText(text)).write))
        }
        let saved = try #require(try laptop.saveView("garden", ViewDefinition(query: try Query.parse("+garden"))))
        desktop.applyStored(try #require(saved.write))
        #expect(desktop.state(of: .shared("garden"))?.rows.map(\.title) == ["water plants", "mow"])
        #expect(desktop.state(of: .shared("garden"))?.rows == laptop.state(of: .shared("garden"))?.rows)

        let snoozed = try laptop.snoozeReminder(TodoID(1), .waiting, until: clock.now.addingTimeInterval(3600))
        desktop.applyStored(try #require(snoozed.write))
        #expect(desktop.snapshot.desktopReminders == laptop.snapshot.desktopReminders)
        #expect(!desktop.snapshot.desktopReminders.isEmpty)

        let removed = try laptop.removeView("garden")
        desktop.applyStored(try #require(removed.write))
        #expect(desktop.state(of: .shared("garden")) == nil)
        #expect(desktop.snapshot == laptop.snapshot)
    }

    @Test func randomEditsAppliedInOrderLeaveBothInstancesEqual() throws {
        var random = SeededRandom(seed: 15)
        let (laptop, desktop) = Self.pair(clock: TestClock())
        for step in 0..<300 {
            // Each edit is planned on whichever instance, always on the newest state.
            let (planner, follower) = Bool.random(using: &random) ? (laptop, desktop) : (desktop, laptop)
            let ids = planner.main.rows.map { TodoID($0.id) }
            let command: TodoCommand
            switch (ids.randomElement(using: &random), Int.random(in: 0..<7, using: &random)) {
            case (nil, _), (_, 0): command = .addText("item \(step) +p\(step % 3) due:today")
            case (let id?, 1): command = .setDone(id, true)
            case (let id?, 2): command = .delete(id)
            case (let id?, 3): command = .edit(id, title: "renamed \(step)")
            case (_, 4): command = .undo
            case (_, 5): command = .redo
            case (let id?, _): command = .modify(id, "+tag\(step % 4) pri:H")
            }
            guard let outcome = try? planner.perform(command), let write = outcome.write else { continue }
            follower.applyStored(write)
            #expect(follower.main.rows == planner.main.rows, "after step \(step): \(command)")
        }
        #expect(laptop.snapshot == desktop.snapshot)
    }
}
