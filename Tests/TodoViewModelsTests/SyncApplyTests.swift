import Foundation
import Testing
import TodoInterchange
import TodoModel
import TodoViewModels

/// What a calendar sync brings in (`planSync`), in-process with an
/// injected clock: one undo step named "sync: …"; to-dos updated by UID or
/// added; a server's deletion taking that item only; a repeating to-do
/// completed on a calendar completed here with its next occurrence; new
/// identities; and a cancelled to-do kept open with its status.
@Suite struct SyncApplyTests {
    static func calendar(_ todos: String...) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//Phone//EN\r\n" + todos.joined() + "END:VCALENDAR\r\n"
    }

    static func todo(_ uid: String, _ lines: String...) -> String {
        "BEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20261127T090000Z\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VTODO\r\n"
    }

    func uid(of id: TodoID, in viewModel: TodoListViewModel) -> String {
        ExternalIdentity.of(viewModel.item(id)!, listID: viewModel.listID)
    }

    @Test func aSyncUpdatesByUIDAddsAndIsOneUndoStep() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let milk = try viewModel.add("buy milk")
        var changes = TodoListViewModel.SyncChanges()
        changes.text = Self.calendar(
            Self.todo(uid(of: milk, in: viewModel), "SUMMARY:buy oat milk"), Self.todo("phone-1@example.com", "SUMMARY:from the phone"))
        let plan = try viewModel.planSync(changes)
        let outcome = try viewModel.perform(.applyImport(plan))
        #expect(outcome.description == "sync: add 1 item, update 1 item")
        #expect(viewModel.main.rows.map(\.title) == ["buy oat milk", "from the phone"])
        _ = try viewModel.perform(.undo)
        #expect(viewModel.main.rows.map(\.title) == ["buy milk"])
    }

    @Test func aServersDeletionTakesThatItemOnlyItsSubtasksStay() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let trip = try viewModel.add("plan the trip")
        let flights = try viewModel.add(shorthand: "book flights parent:\(trip.rawValue)")
        let passport = try viewModel.add(shorthand: "renew passport depends:\(trip.rawValue)")
        var changes = TodoListViewModel.SyncChanges()
        changes.remove = [uid(of: trip, in: viewModel), "gone-already@example.com"]
        let outcome = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        #expect(outcome.description == "sync: delete 1 item")
        #expect(viewModel.item(trip) == nil)
        #expect(viewModel.item(flights)?.parent == nil)
        #expect(viewModel.item(passport)?.depends == [])
        #expect(viewModel.main.rows.count == 2)
    }

    @Test func aRepeatingToDoCompletedOnACalendarBringsItsNextOccurrence() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let plants = try viewModel.add(shorthand: "water plants recur:weekly due:2026-12-01")
        var changes = TodoListViewModel.SyncChanges()
        changes.complete = [uid(of: plants, in: viewModel)]
        let outcome = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        #expect(outcome.description == "sync: complete 1 item")
        #expect(viewModel.item(plants)?.isDone == true)
        let next = try #require(viewModel.main.rows.first { !$0.done })
        #expect(next.title == "water plants")
        #expect(next.due == "2026-12-08")

        // The next occurrence takes the UID the server knows; the completed one a new one.
        let known = uid(of: plants, in: viewModel)
        let nextUID = uid(of: TodoID(next.id), in: viewModel)
        var renames = TodoListViewModel.SyncChanges()
        renames.renames = [(known, "completed-1@example.com"), (nextUID, known)]
        _ = try viewModel.perform(.applyImport(try viewModel.planSync(renames)))
        #expect(viewModel.itemID(withIdentity: known) == TodoID(next.id))
        #expect(viewModel.itemID(withIdentity: "completed-1@example.com") == plants)
    }

    @Test func aCancelledToDoIsKeptOpenWithItsStatus() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        var changes = TodoListViewModel.SyncChanges()
        changes.text = Self.calendar(Self.todo("cancelled@example.com", "SUMMARY:the party", "STATUS:CANCELLED"))
        _ = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        let id = try #require(viewModel.itemID(withIdentity: "cancelled@example.com"))
        #expect(viewModel.item(id)?.isDone == false)
        #expect(viewModel.item(id)?.foreign.icalendar.contains("STATUS:CANCELLED") == true)
        // A file's import still leaves cancelled to-dos out.
        let plan = try viewModel.planImport(Self.calendar(Self.todo("other@example.com", "SUMMARY:x", "STATUS:CANCELLED")), format: .ical)
        #expect(plan.entries.map(\.action) == [.skip])
    }

    /// The sync's `expect`: a to-do the list exports otherwise than the
    /// caller read it (edited here since) is left out of the call,
    /// whatever the call says of it; one still as read is taken. What a
    /// sync agrees on is read in the same turn as the change.
    @Test func aToDoEditedSinceItWasReadIsLeftOutNotOverwritten() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let milk = try viewModel.add("buy milk")
        let bread = try viewModel.add("buy bread")
        let milkUID = uid(of: milk, in: viewModel), breadUID = uid(of: bread, in: viewModel)
        let read = viewModel.exportedVersions(of: [milk, bread])
        #expect(read.map(\.uid) == [milkUID, breadUID])
        #expect(viewModel.outdated(read).isEmpty)
        // An edit here after the caller read the list.
        _ = try viewModel.perform(.modify(milk, "+urgent"))
        #expect(viewModel.outdated(read) == [milkUID])
        // The export's own stamp is no difference: read again later, the same.
        #expect(viewModel.outdated(viewModel.exportedVersions(of: [milk, bread])).isEmpty)
        // "" expects no item: one that exists is outdated, one that does not is not.
        #expect(viewModel.outdated([(milkUID, ""), ("never@example.com", "")]) == [milkUID])

        var changes = TodoListViewModel.SyncChanges()
        changes.text = Self.calendar(Self.todo(milkUID, "SUMMARY:buy oat milk"), Self.todo(breadUID, "SUMMARY:buy rye bread"))
        changes.remove = [milkUID]
        changes.leftOut = viewModel.outdated(read)
        let outcome = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        #expect(outcome.description == "sync: update 1 item")
        #expect(viewModel.item(milk)?.title == "buy milk" && viewModel.item(milk)?.tags == ["urgent"])
        #expect(viewModel.item(bread)?.title == "buy rye bread")
        let agreed = try #require(viewModel.exportedVersions(of: [bread]).first)
        #expect(agreed.text.contains("SUMMARY:buy rye bread"))
    }

    /// A phone's to-do todod cannot hold as it is does not stop the
    /// others: one with no title is titled by its description's first line
    /// (or "(untitled)"); a title or a description too long is shown
    /// shortened and kept whole, and the export writes it back whole while
    /// the item still shows it so; one that cannot be read at all (a date
    /// that is no date) is skipped, its reason naming its UID. A file's
    /// import still refuses the file whole.
    @Test func aToDoTodoCannotHoldIsShortenedOrSkippedAlone() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let longTitle = String(repeating: "x", count: 600)
        let lines = (1...150).map { "line \($0)" }.joined(separator: "\\n")
        let text = Self.calendar(
            Self.todo("no-title-1", "DESCRIPTION:call the plumber\\nabout the tap"), Self.todo("no-title-2"),
            Self.todo("too-long-1", "SUMMARY:" + longTitle), Self.todo("many-lines-1", "SUMMARY:many", "DESCRIPTION:" + lines),
            Self.todo("bad-date-1", "SUMMARY:bad", "DUE:tomorrow-ish"), Self.todo("fine-1", "SUMMARY:fine"))
        var changes = TodoListViewModel.SyncChanges()
        changes.text = text
        let plan = try viewModel.planSync(changes)
        #expect(
            plan.entries.filter { $0.action == .add }.map(\.title)
                == ["call the plumber", ICalendarFormat.untitled, String(repeating: "x", count: 499) + "…", "many", "fine"])
        let skipped = plan.entries.filter { $0.action == .skip }
        #expect(skipped.count == 1 && skipped[0].remarks.joined().contains("UID bad-date-1"), "\(skipped)")
        #expect(throws: TodoError.self) { try viewModel.planImport(text, format: .ical) }

        _ = try viewModel.perform(.applyImport(plan))
        let long = try #require(viewModel.itemID(withIdentity: "too-long-1"))
        let many = try #require(viewModel.itemID(withIdentity: "many-lines-1"))
        #expect(viewModel.item(many)?.notes.count == 100)
        #expect(viewModel.item(many)?.notes.last?.text == "… and 51 more lines, kept whole for the calendar")
        var written = viewModel.exportedVersions(of: [long, many]).map(\.text).joined()
        #expect(written.contains("SUMMARY:" + longTitle.prefix(60)) && written.replacingOccurrences(of: "\r\n ", with: "").contains(longTitle))
        #expect(written.replacingOccurrences(of: "\r\n ", with: "").contains("line 150"))
        #expect(!written.contains("X-TODOD-NOTE"))
        // A note added here keeps every character the calendar had, and adds its own.
        let longLine = String(repeating: "y", count: 2_500)
        changes.text = Self.calendar(Self.todo("long-line-1", "SUMMARY:long line", "DESCRIPTION:first\\n" + longLine))
        _ = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        let longNote = try #require(viewModel.itemID(withIdentity: "long-line-1"))
        #expect(viewModel.item(longNote)?.notes.map(\.text.count) == [5, 2_000])
        _ = try viewModel.perform(.addNote(longNote, "one more here"))
        written = viewModel.exportedVersions(of: [longNote]).map(\.text).joined().replacingOccurrences(of: "\r\n ", with: "")
        #expect(written.contains("DESCRIPTION:first\\n" + longLine + "\\none more here"), "\(written.prefix(300))")
        // Edited here, the new value goes out as it is.
        _ = try viewModel.perform(.edit(long, title: "short now"))
        written = viewModel.exportedVersions(of: [long]).map(\.text).joined()
        #expect(written.contains("SUMMARY:short now") && !written.contains(String(longTitle.prefix(60))))
    }

    /// A UID is kept as the calendar spelled it (an iPhone's in capitals),
    /// and still found whatever the case of a UUID.
    @Test func aUIDKeepsItsSpelling() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let upper = "8D3F6A2C-1B4E-4C7A-9F0D-2E5B8A1C3D4F"
        var changes = TodoListViewModel.SyncChanges()
        changes.text = Self.calendar(Self.todo(upper, "SUMMARY:from the iPhone"))
        _ = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        let id = try #require(viewModel.itemID(withIdentity: upper))
        #expect(uid(of: id, in: viewModel) == upper)
        #expect(viewModel.itemID(withIdentity: upper.lowercased()) == id)
        changes.text = Self.calendar(Self.todo(upper.lowercased(), "SUMMARY:retitled"))
        _ = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        #expect(viewModel.item(id)?.title == "retitled")
        // A calendar's own spelling wins over one stored in lower case before.
        changes.text = Self.calendar(Self.todo(upper, "SUMMARY:retitled again"))
        _ = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        #expect(uid(of: id, in: viewModel) == upper)
    }

    /// A UID a phone changed only in case at one href: the sync removes the
    /// old spelling and brings in the new, which todod finds as one item.
    /// The update wins; the item is not deleted.
    @Test func anItemTheSameCallBringsInIsNotRemoved() throws {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(), clock: TestClock().todoClock)
        let lower = "8d3f6a2c-1b4e-4c7a-9f0d-2e5b8a1c3d4f"
        var changes = TodoListViewModel.SyncChanges()
        changes.text = Self.calendar(Self.todo(lower, "SUMMARY:from the iPhone"))
        _ = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        changes.text = Self.calendar(Self.todo(lower.uppercased(), "SUMMARY:from the iPhone, again"))
        changes.remove = [lower]
        _ = try viewModel.perform(.applyImport(try viewModel.planSync(changes)))
        let id = try #require(viewModel.itemID(withIdentity: lower.uppercased()))
        #expect(viewModel.item(id)?.title == "from the iPhone, again")
    }
}
