import Foundation
import Testing
import TodoModel
import TodoViewModels

/// A repeating item's subtasks are its checklist: completing it brings
/// them back, open, under the next occurrence, in the same undo step; and
/// reopening it at once takes them back with the occurrence.
@Suite struct RepeatingSubtaskTests {
    let clock = TestClock()
    let viewModel: TodoListViewModel

    init() {
        viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: clock.todoClock)
    }

    @Test func completingARepeatingParentBringsItsSubtasksBackUnderTheNextOccurrence() throws {
        let review = try viewModel.add(shorthand: "weekly review recur:weekly due:2026-11-27")
        let inbox = try viewModel.add(shorthand: "inbox zero parent:\(review) due:2026-11-27 +home")
        let plan = try viewModel.add(shorthand: "plan week parent:\(review) sch:2026-11-26")
        let receipts = try viewModel.add(shorthand: "file receipts parent:\(inbox) depends:\(plan)")
        let outside = try viewModel.add(shorthand: "elsewhere")
        try viewModel.perform(.modify(plan, "depends:\(outside)"))
        try viewModel.perform(.setDone(inbox, true))
        let before = viewModel.snapshot

        try viewModel.perform(.setDone(review, true))
        let next = try #require(viewModel.snapshot.items.first { $0.id > outside && $0.parent == nil })
        #expect(next.title == "weekly review" && !next.isDone)
        #expect(next.due == .day(try #require(CalendarDay(iso: "2026-12-04"))))
        let copies = viewModel.snapshot.items.filter { $0.id > next.id }
        #expect(copies.map(\.title) == ["inbox zero", "plan week", "file receipts"])
        #expect(copies.allSatisfy { !$0.isDone })
        let (inboxCopy, planCopy, receiptsCopy) = (copies[0], copies[1], copies[2])
        #expect(inboxCopy.parent == next.id && planCopy.parent == next.id && receiptsCopy.parent == inboxCopy.id)
        // Dates move as far as the due date did; tags and links come along,
        // links inside the checklist to the copies, others as they were.
        #expect(inboxCopy.due == .day(try #require(CalendarDay(iso: "2026-12-04"))))
        #expect(inboxCopy.tags == ["home"])
        #expect(planCopy.scheduled == .day(try #require(CalendarDay(iso: "2026-12-03"))))
        #expect(planCopy.depends == [outside])
        #expect(receiptsCopy.depends == [planCopy.id])
        // The completed occurrence keeps its own subtasks, done.
        #expect([inbox, plan, receipts].allSatisfy { viewModel.item($0)?.isDone == true })

        try viewModel.perform(.undo)
        #expect(viewModel.snapshot.items == before.items)
    }

    @Test func reopeningAtOnceTakesTheCopiesBackButNotOnceOneIsTouched() throws {
        let review = try viewModel.add(shorthand: "weekly review recur:weekly due:2026-11-27")
        _ = try viewModel.add(shorthand: "inbox zero parent:\(review)")
        let count = viewModel.snapshot.items.count
        try viewModel.perform(.setDone(review, true))
        #expect(viewModel.snapshot.items.count == count + 2)
        try viewModel.perform(.setDone(review, false))
        #expect(viewModel.snapshot.items.count == count)

        try viewModel.perform(.setDone(review, true))
        let copy = try #require(viewModel.snapshot.items.max { $0.id < $1.id })
        clock.advance(by: 60)
        try viewModel.perform(.modify(copy.id, "pri:H"))
        try viewModel.perform(.setDone(review, false))
        #expect(viewModel.item(copy.id)?.priority == .high, "a copy the user changed stays, with its occurrence")
        #expect(viewModel.snapshot.items.count == count + 2)
    }

    @Test func aSubtaskThatRepeatsItselfComesBackOnceAndTheParentsOwnLinkFollows() throws {
        let review = try viewModel.add(shorthand: "weekly review recur:weekly due:2026-11-27")
        let water = try viewModel.add(shorthand: "water plants parent:\(review) recur:weekly due:2026-11-27")
        let inbox = try viewModel.add(shorthand: "inbox zero parent:\(review)")
        try viewModel.perform(.modify(review, "depends:\(inbox)"))
        // Completed on its own, the watering made its next occurrence under the review.
        try viewModel.perform(.setDone(water, true))
        clock.advance(by: 3_600)
        try viewModel.perform(.setDone(review, true))
        let next = try #require(viewModel.snapshot.items.last { $0.title == "weekly review" && !$0.isDone })
        let under = viewModel.snapshot.items.filter { $0.parent == next.id }
        #expect(under.map(\.title).sorted() == ["inbox zero", "water plants"], "one copy of each, not two of the watering")
        let inboxCopy = try #require(under.first { $0.title == "inbox zero" })
        #expect(next.depends == [inboxCopy.id], "the occurrence waits for its own checklist")
    }

    @Test func reopeningTakesBackItsOwnOccurrenceNotAnotherOneMadeAtTheSameMoment() throws {
        let home = try viewModel.add(shorthand: "weekly review recur:weekly due:2026-11-27 project:home")
        let work = try viewModel.add(shorthand: "weekly review recur:weekly due:2026-11-27 project:work")
        _ = try viewModel.add(shorthand: "inbox zero parent:\(home)")
        _ = try viewModel.add(shorthand: "inbox zero parent:\(work)")
        try viewModel.perform(.setDone(home, true))
        try viewModel.perform(.setDone(work, true))
        try viewModel.perform(.setDone(work, false))
        let open = viewModel.snapshot.items.filter { $0.title == "weekly review" && !$0.isDone }
        #expect(open.map(\.project).sorted { ($0 ?? "") < ($1 ?? "") } == ["home", "work"], "home's next occurrence stays; work is open again")
        #expect(viewModel.snapshot.items.count == 6)
    }
}
