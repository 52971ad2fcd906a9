import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

@Suite struct TaskwarriorFormatTests {
    /// What `task export` (2.6) wrote for a list with a recurring task, a
    /// done one, a deleted one and a waiting one (Berlin is UTC+1 in winter).
    static let export = """
        [
        {"id":1,"description":"Buy milk","due":"20261124T230000Z","entry":"20261120T080000Z","modified":"20261121T090000Z","priority":"H","project":"home.errands","status":"pending","uuid":"844ab377-3fb6-4599-9bc4-d4895a2c957d","annotations":[{"entry":"20261121T090000Z","description":"semi-skimmed"}],"tags":["shop","Shop"],"urgency":16.9},
        {"id":2,"description":"Pay rent","due":"20261130T230000Z","entry":"20261120T080000Z","mask":"--","modified":"20261120T080000Z","project":"money","recur":"monthly","rtype":"periodic","status":"recurring","uuid":"2648fcb6-44d4-403b-b1ba-b6fd2a7f8379"},
        {"id":0,"description":"Pay rent","due":"20261031T230000Z","end":"20261101T100000Z","entry":"20261120T080000Z","imask":0,"modified":"20261101T100000Z","parent":"2648fcb6-44d4-403b-b1ba-b6fd2a7f8379","recur":"monthly","status":"completed","uuid":"8047dd54-0776-4359-b835-480b238fe3a3"},
        {"id":3,"description":"Pay rent","due":"20261130T230000Z","entry":"20261120T080000Z","imask":1,"modified":"20261120T080000Z","parent":"2648fcb6-44d4-403b-b1ba-b6fd2a7f8379","recur":"monthly","status":"pending","uuid":"9a0b8c7d-0776-4359-b835-480b238fe3a3"},
        {"id":4,"description":"Write report","due":"20261210T133000Z","entry":"20261120T080000Z","modified":"20261120T080000Z","status":"waiting","wait":"20261204T230000Z","scheduled":"20261201T230000Z","uuid":"a57c5020-743a-4bf1-baf3-1e320dce8625","tags":["work"]},
        {"id":0,"description":"old thing","end":"20261121T100000Z","entry":"20261120T080000Z","modified":"20261121T100000Z","status":"deleted","uuid":"d9b5d43b-8438-427a-8a1d-79c8c5f15cc2"}
        ]
        """

    @Test func readsWhatTaskExportPrints() throws {
        let batch = try TaskwarriorFormat.read(Self.export, timeZone: .berlin)
        #expect(batch.items.map(\.title) == ["Buy milk", "Pay rent", "Pay rent", "Write report"])
        #expect(batch.skipped.map(\.reason) == ["deleted in Taskwarrior"])
        let milk = batch.items[0]
        #expect(milk.identity == .external("844ab377-3fb6-4599-9bc4-d4895a2c957d"))
        // Midnight in Berlin is a due day; tags that differ in case are one tag.
        #expect(milk.due == .day(CalendarDay(year: 2026, month: 11, day: 25)))
        #expect(milk.tags == ["shop"])
        #expect(milk.project == "home.errands")
        #expect(milk.priority == .high)
        #expect(milk.notes == [TodoNote(text: "semi-skimmed", addedAt: utc(2026, 11, 21, 9))])
        #expect(milk.createdAt == utc(2026, 11, 20, 8))
        #expect(milk.updatedAt == utc(2026, 11, 21, 9))
    }

    @Test func aTemplateAndItsPendingOccurrenceAreOneRepeatingItem() throws {
        let batch = try TaskwarriorFormat.read(Self.export, timeZone: .berlin)
        let rent = batch.items[1]
        #expect(rent.identity == .external("2648fcb6-44d4-403b-b1ba-b6fd2a7f8379"))
        #expect(rent.recurrence == .monthly)
        #expect(rent.due == .day(CalendarDay(year: 2026, month: 12, day: 1)))
        #expect(!rent.isDone)
        // The done occurrence stays a done item, without the repetition.
        let paid = batch.items[2]
        #expect(paid.isDone)
        #expect(paid.recurrence == nil)
        #expect(paid.completedAt == utc(2026, 11, 1, 10))
    }

    /// `scheduled` is a declared field's, read as `wait` is: nothing is left to keep aside.
    @Test func aTimeOfDayIsAMomentAndScheduledIsReadAsWaitIs() throws {
        let report = try TaskwarriorFormat.read(Self.export, timeZone: .berlin).items[3]
        #expect(report.due == .moment(utc(2026, 12, 10, 13, 30)))
        #expect(report.wait == .day(CalendarDay(year: 2026, month: 12, day: 5)))
        #expect(report.values == ["scheduled": .date(.day(CalendarDay(year: 2026, month: 12, day: 2)))])
        #expect(report.remarks.isEmpty, "\(report.remarks)")
        #expect(report.foreign.taskwarrior.isEmpty)
    }

    /// Attributes todod does not model come back exactly: a whole number
    /// past 2^53, a fraction, an object. One it cannot hold at all is said,
    /// and costs no other.
    @Test func foreignAttributesComeBackExactly() throws {
        let text = #"[{"uuid":"a","description":"x","status":"pending","entry":"20261120T080000Z","big":12345678901234567890,"#
            + #""exact":9007199254740993,"fraction":0.1,"nested":{"b":[1,true,null]},"huge":1e400}]"#
        let item = try #require(try TaskwarriorFormat.read(text, timeZone: .berlin).items.first)
        #expect(item.foreign.taskwarrior == [
            "big": "12345678901234567890", "exact": "9007199254740993", "fraction": "0.1", "nested": #"{"b":[1,true,null]}"#,
        ])
        #expect(item.remarks.contains("huge left out: a value todod cannot hold"), "\(item.remarks)")
        let todo = TodoItem(id: TodoID(1), title: "x", createdAt: Date(timeIntervalSince1970: 0), foreign: item.foreign)
        let entry = TaskwarriorFormat.entry(todo, listID: "l", timeZone: .berlin)
        for (key, value) in item.foreign.taskwarrior { #expect(entry.contains("\"\(key)\":\(value)"), "\(entry)") }
    }

    /// A priority todod has no letter for (a UDA's value) is kept and goes
    /// back while todod has none; one set in todod wins.
    @Test func aPriorityTodoHasNoLetterForGoesBackAsItCame() throws {
        let text = #"[{"uuid":"a","description":"x","status":"pending","entry":"20261120T080000Z","priority":"X"}]"#
        let read = try #require(try TaskwarriorFormat.read(text, timeZone: .berlin).items.first)
        #expect(read.priority == nil)
        #expect(read.remarks.first == "priority \"X\" not used (todod has H, M and L)")
        var item = TodoItem(id: TodoID(1), title: "x", createdAt: Date(timeIntervalSince1970: 0), foreign: read.foreign)
        #expect(TaskwarriorFormat.entry(item, listID: "l", timeZone: .berlin).contains(#""priority":"X""#))
        item.priority = .high
        let ours = TaskwarriorFormat.entry(item, listID: "l", timeZone: .berlin)
        #expect(ours.contains(#""priority":"H""#) && !ours.contains(#""priority":"X""#), "\(ours)")
    }

    @Test func badInputIsRefusedWithWhereAndWhat() {
        func problem(_ text: String) -> ImportProblem? {
            do {
                _ = try TaskwarriorFormat.read(text, timeZone: .berlin)
                return nil
            } catch { return error }
        }
        #expect(problem(#"[{"uuid":"a","description":"x"},{"uuid":"b","description":"y","tags":"work"}]"#)?.description
            == "task 2: tags: expected an array")
        #expect(problem(#"[{"uuid":"a","description":"x","due":"friday"}]"#)?.description
            == "task 1: due \"friday\" is not a Taskwarrior date (20240115T093000Z)")
        #expect(problem(#"[{"uuid":"a","description":"x"},{"uuid":"A","description":"y"}]"#)?.description == "task 2: uuid a appears twice")
        #expect(problem(#"[{"uuid":"a","description":"  "}]"#)?.location == "task 1")
        #expect(problem(#"[{"uuid":"a","description":"x"},"#)?.description
            == "line 1: the file ends inside the JSON array (no closing ]): is it cut short?")
        #expect(problem(#"[{"description":"x"}]"#)?.description == "task 1: it has no uuid")
        #expect(problem(#"[{"uuid":"a","description":"x","status":"frozen"}]"#)?.description == "task 1: unknown status \"frozen\"")
    }

    /// A refusal that is a sentence of its own (a title's rule) is said
    /// with one full stop, not two ("Shorten it..").
    @Test func aRefusalEndsWithOneFullStop() throws {
        let long = String(repeating: "x", count: 3000)
        let problem = #expect(throws: ImportProblem.self) {
            try TaskwarriorFormat.read(#"[{"uuid":"a","description":"\#(long)"}]"#, timeZone: .berlin)
        }
        let error = TodoError.invalidImport(location: try #require(problem).location, message: try #require(problem).message)
        #expect(error.description.hasSuffix("it.") && !error.description.hasSuffix(".."), "\(error)")
        #expect(TodoError.invalidImport(location: "line 3", message: "not a date").description == "Nothing was imported: line 3: not a date.")
    }

    /// JSONDecoder says only that a file is not JSON; `task export` writes
    /// a task a line, so the line that is not is named, and a file cut
    /// short is said to be.
    @Test func brokenJSONIsNamedByItsLine() {
        let lines = Self.export.split(separator: "\n").map(String.init)
        let cut = lines.prefix(3).joined(separator: "\n") + "\n" + lines[3].prefix(40)
        #expect(throws: ImportProblem(location: "line 4", message: "not valid JSON: " + ImportFields.shown(lines[3].prefix(40)))) {
            try TaskwarriorFormat.read(cut, timeZone: .berlin)
        }
        let unclosed = lines.prefix(3).joined(separator: "\n")
        #expect(throws: ImportProblem(location: "line 3", message: "the file ends inside the JSON array (no closing ]): is it cut short?")) {
            try TaskwarriorFormat.read(unclosed, timeZone: .berlin)
        }
        // After a blank first line, the line to blame is still the broken one.
        #expect(throws: ImportProblem(location: "line 5", message: "not valid JSON: " + ImportFields.shown(lines[3].prefix(40)))) {
            try TaskwarriorFormat.read("\n" + cut, timeZone: .berlin)
        }
        // Laid out otherwise, it is the whole that is not JSON.
        #expect(throws: ImportProblem(location: "input", message: "not valid JSON")) {
            try TaskwarriorFormat.read("[\n  {\n    \"uuid\": \"a\",\n", timeZone: .berlin)
        }
    }

    @Test func readsOneTaskPerLineToo() throws {
        let lines = #"{"uuid":"a","description":"x"}"# + "\n\n" + #"{"uuid":"b","description":"y","status":"completed"}"# + "\n"
        let batch = try TaskwarriorFormat.read(lines, timeZone: .berlin)
        #expect(batch.items.map(\.isDone) == [false, true])
    }

    @Test(arguments: [
        ("weekly", "weekly"), ("3d", "every 3 days"), ("2 weeks", "every 2 weeks"), ("6mo", "every 6 months"),
        ("quarterly", "every 3 months"), ("biweekly", "every 2 weeks"), ("1y", "yearly"), ("weekdays", "weekdays"),
        ("2q", "every 6 months"), ("annual", "yearly"), ("9223372036854775807q", nil), ("0d", nil), ("3 fortnights", nil),
    ] as [(String, String?)])
    func recurrencesTaskwarriorWrites(text: String, expected: String?) {
        #expect(TaskwarriorRecurrence.read(text)?.text == expected)
    }

    /// `todod_recur` ("from completion") is read while `recur` still says
    /// its period; a repetition changed in Taskwarrior, which keeps the
    /// attribute as it was, is read from `recur`.
    @Test func aRepetitionChangedInTaskwarriorIsReadFromRecur() throws {
        let watering = try #require(Recurrence("weekly from completion"))
        let item = TodoItem(id: TodoID(1), title: "water plants", createdAt: utc(2026, 1, 1), due: .day(CalendarDay(year: 2026, month: 1, day: 15)), recurrence: watering)
        let entry = TaskwarriorFormat.entry(item, listID: listID, timeZone: .berlin)
        #expect(try TaskwarriorFormat.read("[" + entry + "]", timeZone: .berlin).items.first?.recurrence == watering)
        let changed = entry.replacingOccurrences(of: #""recur":"weekly""#, with: #""recur":"monthly""#)
        #expect(changed != entry)
        #expect(try TaskwarriorFormat.read("[" + changed + "]", timeZone: .berlin).items.first?.recurrence == .monthly)
    }

    @Test func recurrencesTodoCannotKeepAreLeftOutWithARemark() throws {
        let text = #"[{"uuid":"a","description":"x","status":"recurring","recur":"5min","due":"20261130T230000Z"}]"#
        let item = try #require(try TaskwarriorFormat.read(text, timeZone: .berlin).items.first)
        #expect(item.recurrence == nil)
        #expect(item.remarks == ["repetition \"5min\" left out: todod cannot repeat that way"])
    }
}

@Suite struct TaskwarriorTemplateTests {
    @Test func pendingOccurrencesOfADeletedTemplateAreTasksOfTheirOwn() throws {
        let text = """
            [{"uuid":"t","description":"rent","status":"deleted","recur":"monthly","due":"20261130T230000Z"},
             {"uuid":"c","description":"rent","status":"pending","parent":"t","recur":"monthly","due":"20261130T230000Z"}]
            """
        let batch = try TaskwarriorFormat.read(text, timeZone: .berlin)
        #expect(batch.items.map(\.identity) == [.external("c")])
        #expect(batch.skipped.map(\.source) == ["task 1"])
    }

    /// A done occurrence is a done item that does not repeat, and goes
    /// back to Taskwarrior as the occurrence of its template it was: its
    /// `parent`, `imask`, `recur` and `rtype` as they came, while it is done.
    @Test func aDoneOccurrenceGoesBackAsTheOccurrenceItWas() throws {
        let paid = try #require(try TaskwarriorFormat.read(TaskwarriorFormatTests.export, timeZone: .berlin).items.dropFirst(2).first)
        #expect(paid.isDone && paid.recurrence == nil)
        #expect(paid.foreign.taskwarrior == [
            "parent": #""2648fcb6-44d4-403b-b1ba-b6fd2a7f8379""#, "imask": "0", "recur": #""monthly""#,
        ])
        var item = TodoItem(
            id: TodoID(3), title: paid.title, isDone: true, createdAt: utc(2026, 11, 20, 8), completedAt: paid.completedAt,
            foreign: paid.foreign)
        let entry = TaskwarriorFormat.entry(item, listID: listID, timeZone: .berlin)
        for attribute in [#""parent":"2648fcb6-44d4-403b-b1ba-b6fd2a7f8379""#, #""imask":0"#, #""recur":"monthly""#] {
            #expect(entry.contains(attribute), "\(entry)")
        }
        // Reopened in todod, it is a task of its own.
        _ = item.setDone(false, at: utc(2026, 11, 22))
        let reopened = TaskwarriorFormat.entry(item, listID: listID, timeZone: .berlin)
        #expect(!reopened.contains("parent") && !reopened.contains("imask") && !reopened.contains("recur"), "\(reopened)")
        // A pending task's are read, not kept.
        let rent = try TaskwarriorFormat.read(TaskwarriorFormatTests.export, timeZone: .berlin).items[1]
        #expect(rent.foreign.taskwarrior.isEmpty, "\(rent.foreign)")
    }
}
