import Foundation
import Testing
import TodoInterchange

@testable import TodoSync

/// A to-do changed in todod and on the server since both last agreed
/// (`base`, todod's export of it), merged field by field: a field changed
/// on one side takes that side; a field both changed to different values
/// takes the later side (LAST-MODIFIED, else DTSTAMP; todod's on a tie) and
/// keeps the other value as a note, in DESCRIPTION and as a dated
/// X-TODOD-NOTE; what one side alone has (alarms, X- lines, URL) is kept.
@Suite struct ThreeWayMergeTests {
    /// The version both last agreed on: todod's export.
    static func base() throws -> TodoComponent { try CalendarResource(parsing: Written.todod).todo }

    /// todod's side: changed on 10 December.
    static func local() throws -> TodoComponent {
        try base().with("DTSTAMP:20261210T090000Z", "LAST-MODIFIED:20261210T090000Z")
    }

    /// Tasks.org's side: changed on 11 December, later than todod's.
    static func remote() throws -> TodoComponent {
        try base().with("DTSTAMP:20261211T081500Z", "LAST-MODIFIED:20261211T081500Z")
    }

    @Test func fieldsChangedOnOneSideEachTakeThatSide() throws {
        let local = try Self.local().with("SUMMARY:Buy oat milk")
        let remote = try Self.remote().with("DUE;VALUE=DATE:20261212")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.todo.first("SUMMARY")?.line == "SUMMARY:Buy oat milk")
        #expect(result.todo.first("DUE")?.line == "DUE;VALUE=DATE:20261212")
        #expect(result.fromLocal == ["SUMMARY"])
        #expect(result.fromRemote == ["DUE"])
        #expect(result.conflicts == [])
        // Each where todod has it; no note added.
        #expect(result.todo.properties.map(\.name) == local.properties.map(\.name))
        #expect(SyncField.value(of: "DESCRIPTION", in: result.todo) == ["the organic one", "from the market"])
        #expect(lines(of: "DESCRIPTION", in: result.todo) == lines(of: "DESCRIPTION", in: local))
    }

    @Test func nothingChangedIsNothingToTake() throws {
        let result = merge(base: try Self.base(), local: try Self.local(), remote: try Self.remote())
        #expect(result.fromLocal == [])
        #expect(result.fromRemote == [])
        #expect(result.conflicts == [])
        #expect(result.todo.properties.filter { SyncField.of($0.name) != nil } == (try Self.local()).properties.filter { SyncField.of($0.name) != nil })
    }

    @Test func bothChangingAFieldTheLaterWinsAndTheLosersValueIsANote() throws {
        let local = try Self.local().with("SUMMARY:Buy oat milk")
        let remote = try Self.remote().with("SUMMARY:Buy soy milk")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.todo.first("SUMMARY")?.value == "Buy soy milk")
        let note = "conflict: todod set the title to “Buy oat milk”"
        #expect(result.conflicts == [ThreeWayMerge.Conflict(field: "SUMMARY", localLost: true, note: note)])
        #expect(result.fromRemote == ["SUMMARY"])
        #expect(result.fromLocal == [])
        #expect(SyncField.value(of: "DESCRIPTION", in: result.todo) == ["the organic one", "from the market", note])
        #expect(
            result.todo.properties.filter { $0.name == "X-TODOD-NOTE" }.map(\.line) == [
                "X-TODOD-NOTE;X-ADDED=20261201T083000Z:the organic one", "X-TODOD-NOTE;X-ADDED=20261201T090000Z:from the market",
                "X-TODOD-NOTE;X-ADDED=20261212T120000Z:" + note,
            ])
    }

    @Test func whenTodoChangedLaterItsValueWinsAndTheServersIsTheNote() throws {
        let local = try Self.local().with("SUMMARY:Buy oat milk", "LAST-MODIFIED:20261211T100000Z")
        let remote = try Self.remote().with("SUMMARY:Buy soy milk")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.todo.first("SUMMARY")?.value == "Buy oat milk")
        #expect(
            result.conflicts == [ThreeWayMerge.Conflict(field: "SUMMARY", localLost: false, note: "conflict: Tasks.org set the title to “Buy soy milk”")])
        #expect(result.fromLocal == ["SUMMARY"])
        #expect(result.fromRemote == [])
        #expect(SyncField.value(of: "DESCRIPTION", in: result.todo)?.last == "conflict: Tasks.org set the title to “Buy soy milk”")
    }

    @Test func onATieTodoWins() throws {
        let local = try Self.local().with("SUMMARY:Buy oat milk", "LAST-MODIFIED:20261211T081500Z")
        let remote = try Self.remote().with("SUMMARY:Buy soy milk")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.todo.first("SUMMARY")?.value == "Buy oat milk")
        #expect(result.conflicts.map(\.localLost) == [false])
        // Neither side saying when: a tie too.
        let unstamped = merge(
            base: try Self.base(), local: local.without("LAST-MODIFIED", "DTSTAMP"), remote: remote.without("LAST-MODIFIED", "DTSTAMP"))
        #expect(unstamped.todo.first("SUMMARY")?.value == "Buy oat milk")
        #expect(unstamped.conflicts.map(\.note) == ["conflict: Tasks.org set the title to “Buy soy milk”"])
    }

    @Test func aSideWithoutLastModifiedIsAsLateAsItsStamp() throws {
        let local = try Self.local().with("SUMMARY:Buy oat milk", "DTSTAMP:20261211T100000Z").without("LAST-MODIFIED")
        let remote = try Self.remote().with("SUMMARY:Buy soy milk")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.todo.first("SUMMARY")?.value == "Buy oat milk")
        #expect(result.conflicts.map(\.localLost) == [false])
        #expect(result.todo.first("LAST-MODIFIED")?.value == "20261211T100000Z")
    }

    @Test func bothChangingAFieldToTheSameValueIsNoConflict() throws {
        let local = try Self.local().with("SUMMARY:Buy oat milk", "CATEGORIES:groceries,dairy")
        let remote = try Self.remote().with("SUMMARY:Buy oat milk", "CATEGORIES:Dairy,Groceries")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.conflicts == [])
        #expect(result.fromLocal == [])
        #expect(result.fromRemote == [])
        #expect(result.todo.first("CATEGORIES")?.line == "CATEGORIES:groceries,dairy")
        #expect(SyncField.value(of: "DESCRIPTION", in: result.todo) == ["the organic one", "from the market"])
    }

    /// A cleared field is a value like any other: the later side's clearing wins,
    /// or the earlier side's clearing is the note.
    @Test func aClearedFieldConflictsWithAChangedOne() throws {
        let cleared = try Self.local().without("DUE")
        let moved = try Self.remote().with("DUE;VALUE=DATE:20261212")
        let remoteLater = merge(base: try Self.base(), local: cleared, remote: moved)
        #expect(remoteLater.todo.first("DUE")?.value == "20261212")
        #expect(remoteLater.conflicts.map(\.note) == ["conflict: todod cleared due"])
        let localLater = merge(base: try Self.base(), local: cleared.with("LAST-MODIFIED:20261212T110000Z"), remote: moved)
        #expect(localLater.todo.first("DUE") == nil)
        #expect(localLater.conflicts.map(\.note) == ["conflict: Tasks.org set due to Sat 12 Dec 2026"])
        #expect(localLater.fromLocal == ["DUE"])
    }

    @Test func severalConflictsAreSeveralNotesInTheOrderOfTheFields() throws {
        let local = try Self.local().with("SUMMARY:Buy oat milk", "DUE;VALUE=DATE:20261210", "PRIORITY:1")
        let remote = try Self.remote().with("SUMMARY:Buy soy milk", "DUE;VALUE=DATE:20261214", "PRIORITY:5")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        let notes = [
            "conflict: todod set the title to “Buy oat milk”", "conflict: todod set due to Thu 10 Dec 2026",
            "conflict: todod set the priority to high",
        ]
        #expect(result.conflicts.map(\.note) == notes)
        #expect(result.conflicts.map(\.field) == ["SUMMARY", "DUE", "PRIORITY"])
        #expect(result.fromRemote == ["DUE", "PRIORITY", "SUMMARY"])
        #expect(SyncField.value(of: "DESCRIPTION", in: result.todo) == ["the organic one", "from the market"] + notes)
        #expect(result.todo.properties.filter { $0.name == "X-TODOD-NOTE" }.map(\.value).suffix(3) == notes[...])
        #expect(result.todo.properties.filter { $0.name == "X-TODOD-NOTE" }.count == 5)
    }

    @Test func notesBothSidesEditedAreKeptAsANoteTodoReadsBack() throws {
        let local = try Self.local().with("DESCRIPTION:the organic one\\nfrom the market\\nor the shop").with(
            "LAST-MODIFIED:20261210T090000Z")
        let remote = try Self.remote().with("DESCRIPTION:the organic one\\, 1l")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        let note = "conflict: todod set the notes to “the organic one / from the market / or the shop”"
        #expect(result.conflicts.map(\.note) == [note])
        #expect(result.todo.first("DESCRIPTION")?.value == "the organic one\\, 1l\\n" + ContentLine.escaped(note))
        let text = crlf(["BEGIN:VCALENDAR", "VERSION:2.0"]) + result.todo.text + crlf(["END:VCALENDAR"])
        let item = try #require(try ICalendarFormat.read(text, timeZone: .berlin).items.first)
        #expect(item.notes.map(\.text) == ["the organic one, 1l", note])
        #expect(item.notes.last?.addedAt == syncTime)
    }

    /// The same to-do met for the first time on both sides (or after what
    /// was agreed was forgotten): nothing says which side changed what. So
    /// every field a person sees that the sides have differently is a
    /// conflict, one side lacking it included (it may have been cleared
    /// there): the later side's value is taken, and the other kept as a
    /// note that says what that side *had*, not what it set. What no person
    /// sees (the phone's sort order) is taken from the side that has it.
    @Test func withoutABaseWhatTheSidesHaveDifferentlyIsAConflict() throws {
        let local = try CalendarResource(parsing: Written.todod).todo
        let remote = try CalendarResource(parsing: Written.tasksOrg).todo
        let result = merge(base: nil, local: local, remote: remote)
        #expect(result.conflicts.map(\.field) == ["SUMMARY", "DUE", "DESCRIPTION", "X-TODOD-PROJECT", "BEGIN:VALARM"])
        #expect(result.conflicts.allSatisfy { $0.localLost })
        #expect(
            result.conflicts.map(\.note) == [
                "conflict: todod had the title “Buy milk”", "conflict: todod had due Fri 11 Dec 2026",
                "conflict: todod had the notes “the organic one / from the market”", "conflict: todod had the project home",
                "conflict: todod had no alarms",
            ])
        #expect(!result.conflicts.contains { $0.note.contains(" set ") })
        #expect(result.todo.first("SUMMARY")?.value == "Buy oat milk")
        #expect(result.todo.first("X-TODOD-PROJECT") == nil)
        #expect(result.todo.first("X-APPLE-SORT-ORDER") != nil)
        #expect(result.todo.components == [tasksOrgAlarm])
        // Tasks.org had no notes: the notes are the conflicts'.
        #expect(SyncField.value(of: "DESCRIPTION", in: result.todo) == result.conflicts.map(\.note))
        // PRIORITY 9 both, tags in another case, the same parent: no conflict.
        #expect(!result.conflicts.contains { ["PRIORITY", "CATEGORIES", "RELATED-TO"].contains($0.field) })
        #expect(result.todo.first("CATEGORIES")?.value == "groceries")
    }

    /// A due date one side cleared, met with no base (a sync removed and
    /// added again): the later side's "none" wins, and the date is a note.
    @Test func withoutABaseAClearedDueDateIsAConflictNotASilentChoice() throws {
        let local = try Self.local().with("LAST-MODIFIED:20261210T090000Z")
        var remote = try Self.local().with("LAST-MODIFIED:20261211T090000Z")
        remote.properties.removeAll { $0.name == "DUE" }
        #expect(local.first("DUE") != nil)
        let result = merge(base: nil, local: local, remote: remote)
        #expect(result.conflicts.map(\.field) == ["DUE"])
        #expect(result.todo.first("DUE") == nil)
        #expect(result.conflicts.first?.note.hasPrefix("conflict: todod had due ") == true)
    }

    /// A conflict over long notes gives a note todod holds: the value is
    /// shortened, and says so.
    @Test func aConflictNoteStaysWithinWhatTodoHolds() throws {
        let long = String(repeating: "a long line of notes ", count: 120)
        let local = try Self.local().with("DESCRIPTION:" + long).with("LAST-MODIFIED:20261210T090000Z")
        let remote = try Self.remote().with("DESCRIPTION:short")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        let note = try #require(result.conflicts.first { $0.field == "DESCRIPTION" }?.note)
        #expect(note.count <= ConflictWording.maximumNoteLength)
        #expect(note.contains("(shortened from "), "\(note)")
    }

    /// A to-do that holds as many notes as todod keeps gets no conflict
    /// note (todod would refuse the to-do, and every round fail); the
    /// conflict says so, for `sync status`.
    @Test func aConflictOnAToDoFullOfNotesAddsNoNote() throws {
        let notes = (1...100).map { "note \($0)" }.joined(separator: "\\n")
        let local = try Self.local().with("DESCRIPTION:" + notes).with("SUMMARY:Buy milk here").with("LAST-MODIFIED:20261210T090000Z")
        let remote = try Self.remote().with("DESCRIPTION:" + notes).with("SUMMARY:Buy milk there")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.conflicts.map(\.field).contains("SUMMARY"))
        #expect(result.todo.noteCount == 100)
        #expect(result.conflicts.allSatisfy { $0.note.contains("not added to the to-do") })
    }

    @Test func withoutABaseTheSameValuesAreNoConflict() throws {
        let local = try Self.local()
        let remote = try Self.remote().with("PRIORITY:7", "CATEGORIES:Groceries")
        let result = merge(base: nil, local: local, remote: remote)
        #expect(result.conflicts == [])
        #expect(result.fromLocal == [])
        #expect(result.fromRemote == [])
    }

    /// Alarms, X- lines and URL are fields like any other: the side that
    /// added (or removed) one since the base is the side taken.
    @Test func whatOneSideAloneAddedOrRemovedIsTaken() throws {
        let base = try Self.base().with("X-MOZ-LASTACK:20261201T090000Z").adding(tasksOrgAlarm)
        let local = try Self.local().with("X-MOZ-LASTACK:20261201T090000Z", "URL:https://shop.example.com/oat-milk").adding(tasksOrgAlarm)
        let secondAlarm = ["BEGIN:VALARM", "TRIGGER;VALUE=DATE-TIME:20261212T070000Z", "ACTION:DISPLAY", "DESCRIPTION:Buy milk", "END:VALARM"]
        let remote = try Self.remote().with("X-APPLE-SORT-ORDER:-1240418114").adding(tasksOrgAlarm).adding(secondAlarm)
            .without("X-MOZ-LASTACK")
        let result = merge(base: base, local: local, remote: remote)
        #expect(result.conflicts == [])
        #expect(result.todo.first("URL")?.value == "https://shop.example.com/oat-milk")
        #expect(result.todo.first("X-APPLE-SORT-ORDER")?.value == "-1240418114")
        #expect(result.todo.first("X-MOZ-LASTACK") == nil)
        #expect(result.todo.components == [tasksOrgAlarm, secondAlarm])
        #expect(result.fromLocal == ["URL"])
        #expect(result.fromRemote == ["BEGIN:VALARM", "X-APPLE-SORT-ORDER", "X-MOZ-LASTACK"])

        // An alarm the server deleted goes; one todod's side deleted too.
        let deleted = merge(base: base, local: local, remote: try Self.remote().with("X-MOZ-LASTACK:20261201T090000Z"))
        #expect(deleted.todo.components == [])
        #expect(deleted.fromRemote == ["BEGIN:VALARM"])
        let deletedLocally = merge(
            base: base, local: try Self.local(), remote: try Self.remote().with("X-MOZ-LASTACK:20261201T090000Z").adding(tasksOrgAlarm))
        #expect(deletedLocally.todo.components == [])
        #expect(deletedLocally.fromLocal == ["X-MOZ-LASTACK", "BEGIN:VALARM"])
    }

    @Test func tagsInAnotherCaseAndOrderAreTheSameTags() throws {
        let local = try Self.local().with("CATEGORIES:a,b")
        let remote = try Self.remote().with("CATEGORIES:B,A")
        let result = merge(base: nil, local: local, remote: remote)
        #expect(result.conflicts == [])
        #expect(result.todo.first("CATEGORIES")?.line == "CATEGORIES:a,b")
        // A tag added is a change.
        let added = merge(base: local, local: local, remote: remote.with("CATEGORIES:B,A,c"))
        #expect(added.fromRemote == ["CATEGORIES"])
        #expect(added.todo.first("CATEGORIES")?.line == "CATEGORIES:B,A,c")
    }

    @Test func prioritiesOfOneLevelAreThePriority() throws {
        // todod writes high as 1; Tasks.org and Thunderbird write 2 or 3.
        let local = try Self.local().with("PRIORITY:1")
        let remote = try Self.remote().with("PRIORITY:2")
        let same = merge(base: try Self.base(), local: local, remote: remote)
        #expect(same.conflicts == [])
        #expect(same.todo.first("PRIORITY")?.value == "1")
        let different = merge(base: try Self.base(), local: local, remote: remote.with("PRIORITY:5"))
        #expect(different.conflicts.map(\.note) == ["conflict: todod set the priority to high"])
        #expect(different.todo.first("PRIORITY")?.value == "5")
        // A base of 8 is low as 9 is: a remote 9 is no change, todod's 1 is.
        let fromLocal = merge(base: try Self.base().with("PRIORITY:8"), local: local, remote: try Self.remote())
        #expect(fromLocal.fromLocal == ["PRIORITY"])
        #expect(fromLocal.todo.first("PRIORITY")?.value == "1")
    }

    @Test func doneSaidByStatusOrByACompletionDateIsTheSame() throws {
        let local = try Self.local().with("STATUS:COMPLETED").with("COMPLETED:20261210T090000Z")
        let remote = try Self.remote().without("STATUS").with("COMPLETED:20261211T070000Z", "PERCENT-COMPLETE:100")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.conflicts == [])
        #expect(lines(of: "STATUS", in: result.todo) == ["STATUS:COMPLETED", "COMPLETED:20261210T090000Z"])
    }

    /// STATUS, COMPLETED and PERCENT-COMPLETE come from one side together,
    /// in the place of the STATUS they replace.
    @Test func completionOnTheServerIsTakenWhole() throws {
        let local = try Self.local().with("SUMMARY:Buy oat milk")
        let remote = try Self.remote().with("STATUS:COMPLETED", "COMPLETED:20261211T070000Z", "PERCENT-COMPLETE:100")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.fromRemote == ["STATUS"])
        #expect(result.fromLocal == ["SUMMARY"])
        #expect(lines(of: "STATUS", in: result.todo) == ["STATUS:COMPLETED", "COMPLETED:20261211T070000Z", "PERCENT-COMPLETE:100"])
        let names = result.todo.properties.map(\.name)
        #expect(names[4...7] == ["SUMMARY", "STATUS", "COMPLETED", "PERCENT-COMPLETE"])
    }

    @Test func notesAreComparedByTheirTextNotTodoDsDatedLines() throws {
        let local = try Self.local()
        // A server that drops X- lines, and spaces the lines its way.
        let remote = try Self.remote().without("X-TODOD-NOTE").with("DESCRIPTION:the organic one \\n\\nfrom the market\\n")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.conflicts == [])
        #expect(result.fromRemote == [])
        #expect(lines(of: "DESCRIPTION", in: result.todo) == lines(of: "DESCRIPTION", in: local))
        // An edit of the text keeps the server's lines, its stale X- lines with them.
        let edited = try Self.remote().with("DESCRIPTION:the organic one\\nfrom the farm shop")
        let taken = merge(base: try Self.base(), local: local, remote: edited)
        #expect(taken.fromRemote == ["DESCRIPTION"])
        #expect(lines(of: "DESCRIPTION", in: taken.todo) == lines(of: "DESCRIPTION", in: edited))
    }

    /// todod's X-TODOD-RECURRENCE says how it reads the RRULE: a new rule
    /// from the server comes without the old reading.
    @Test func theRepetitionComesFromOneSideWithTodoDsReadingOfIt() throws {
        let base = try Self.base().with("RRULE:FREQ=WEEKLY;BYDAY=FR", "X-TODOD-RECURRENCE:every week from completion")
        let local = try Self.local().with("RRULE:FREQ=WEEKLY;BYDAY=FR", "X-TODOD-RECURRENCE:every week from completion")
        let remote = try Self.remote().with("RRULE:FREQ=MONTHLY;BYMONTHDAY=1")
        let result = merge(base: base, local: local, remote: remote)
        #expect(result.fromRemote == ["RRULE"])
        #expect(lines(of: "RRULE", in: result.todo) == ["RRULE:FREQ=MONTHLY;BYMONTHDAY=1"])
    }

    @Test func aParentChangedOnTheServerIsTaken() throws {
        let local = try Self.local().with("SUMMARY:Buy oat milk")
        let remote = try Self.remote().with("RELATED-TO;RELTYPE=PARENT:5588129374659911234")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.fromRemote == ["RELATED-TO"])
        #expect(result.todo.first("RELATED-TO")?.line == "RELATED-TO;RELTYPE=PARENT:5588129374659911234")
        #expect(result.todo.properties.last?.name == "RELATED-TO")
    }

    /// What the server alone has comes after todod's lines, as the server
    /// wrote them, in its order.
    @Test func fieldsOnlyTheServerHasComeLastInItsOrder() throws {
        let added = [
            "LOCATION:Market hall", "URL:https://market.example.com", "GEO:52.52;13.40", "X-APPLE-SORT-ORDER:-1240418114", "CLASS:PRIVATE",
            "X-MOZ-GENERATION:4", "COLOR:teal",
        ]
        var remote = try Self.remote()
        for line in added { remote = remote.with(line) }
        let local = try Self.local()
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.fromRemote == ["CLASS", "COLOR", "GEO", "LOCATION", "URL", "X-APPLE-SORT-ORDER", "X-MOZ-GENERATION"])
        let remoteOnly = result.todo.properties.map(\.line).filter { added.contains($0) }
        #expect(remoteOnly == added)
        #expect(Array(result.todo.properties.map(\.line).suffix(added.count)) == added)
    }

    @Test func theStampsAreTheLaterChangeNowAndTheHigherSequence() throws {
        let local = try Self.local().with("SUMMARY:Buy oat milk", "SEQUENCE:2")
        let remote = try Self.remote().with("SEQUENCE:5")
        let result = merge(base: try Self.base(), local: local, remote: remote)
        #expect(result.todo.first("LAST-MODIFIED")?.value == "20261211T081500Z")
        #expect(result.todo.first("DTSTAMP")?.value == "20261212T120000Z")
        #expect(result.todo.first("SEQUENCE")?.value == "5")
        #expect(result.todo.properties.count { $0.name == "SEQUENCE" } == 1)
        // Stamps stay where todod had them; a sequence only todod's side lacked is added.
        #expect(result.todo.properties.map(\.name).prefix(4) == ["UID", "DTSTAMP", "CREATED", "LAST-MODIFIED"])
        let remoteSequence = merge(base: try Self.base(), local: try Self.local(), remote: remote)
        #expect(remoteSequence.todo.properties.last?.line == "SEQUENCE:5")

        let unsequenced = merge(base: try Self.base(), local: try Self.local(), remote: try Self.remote())
        #expect(unsequenced.todo.first("SEQUENCE") == nil)
        let unstamped = merge(
            base: try Self.base(), local: try Self.local().without("LAST-MODIFIED", "DTSTAMP"),
            remote: try Self.remote().without("LAST-MODIFIED", "DTSTAMP"))
        #expect(unstamped.todo.first("LAST-MODIFIED")?.value == "20261212T120000Z")
        #expect(unstamped.todo.first("DTSTAMP")?.value == "20261212T120000Z")
        #expect(unstamped.todo.first("UID")?.value == "6285093141925946721")
        #expect(unstamped.todo.first("CREATED")?.value == "20261201T080000Z")
    }

    @Test func aMergedToDoIsWrittenBackInItsResource() throws {
        var resource = try CalendarResource(parsing: Written.thunderbird)
        let base = resource.todo
        let remote = base.with("SUMMARY:Water the plants and the herbs", "LAST-MODIFIED:20261211T090000Z")
        let local = base.with("DUE;TZID=Europe/Berlin:20261204T200000", "LAST-MODIFIED:20261210T200000Z")
        let result = ThreeWayMerge.merge(
            base: base, local: local, remote: remote, sides: .init(local: "todod", remote: RemoteName.of(productID: resource.productID)),
            now: syncTime, timeZone: .berlin)
        #expect(result.conflicts == [])
        resource.todo = result.todo
        let again = try CalendarResource(parsing: resource.text(productID: "-//todod//todod 0.9.0//EN"))
        #expect(again.todo == result.todo)
        #expect(again.companions.count == 2)
        #expect(again.todo.first("SUMMARY")?.value == "Water the plants and the herbs")
        #expect(again.todo.first("DUE")?.value == "20261204T200000")
        #expect(again.todo.first("DESCRIPTION")?.line == Written.thunderbirdDescription)
        #expect(again.todo.first("X-MOZ-GENERATION")?.value == "3")
    }
}
