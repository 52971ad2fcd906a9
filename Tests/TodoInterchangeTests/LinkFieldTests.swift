import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

/// Links between items (`depends`, `parent`) in the three formats: each
/// names the other item as its format names items (a Taskwarrior UUID, a
/// calendar UID, a todo.txt label), both ways; a link that names no item
/// is kept as it came, and said.
@Suite struct LinkFieldTests {
    static let a = "aaaaaaaa-0000-4000-8000-000000000001"
    static let b = "bbbbbbbb-0000-4000-8000-000000000002"
    static let c = "cccccccc-0000-4000-8000-000000000003"
    static let gone = "dddddddd-0000-4000-8000-000000000004"

    static func task(_ uuid: String, _ title: String, _ more: String = "") -> String {
        #"{"uuid":"\#(uuid)","description":"\#(title)","status":"pending","entry":"20261101T080000Z""#
            + (more.isEmpty ? "" : "," + more) + "}"
    }

    static func tasks(_ tasks: String...) -> String { "[" + tasks.joined(separator: ",\n") + "]\n" }

    static func calendar(_ todos: [(uid: String, properties: [String])]) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
            + todos.map { todo in
                "BEGIN:VTODO\r\nUID:\(todo.uid)\r\nSUMMARY:\(todo.uid)\r\n" + todo.properties.map { $0 + "\r\n" }.joined() + "END:VTODO\r\n"
            }.joined() + "END:VCALENDAR\r\n"
    }

    static func plan(_ text: String, _ format: InterchangeFormat, into list: TodoCollection) throws -> ImportPlan {
        ImportPlan(try format.read(text, timeZone: .berlin), format: format, into: list, listID: listID, at: noon, timeZone: .berlin)
    }

    /// `list` with `text` imported into it.
    static func importing(_ text: String, _ format: InterchangeFormat, into list: TodoCollection = TodoCollection(items: [], nextID: TodoID(1)))
        throws -> TodoCollection
    {
        var list = list
        if let step = try plan(text, format, into: list).step { list.apply(step) }
        return list
    }

    /// Every item of `list` written in `format`, as the list exports.
    static func export(_ list: TodoCollection, _ format: InterchangeFormat) -> String {
        ExportDocument(format: format, listID: listID, timeZone: .berlin, now: noon, version: "test", list: list)
            .text(of: list.items.sorted { $0.id < $1.id }, itemsBefore: 0, isLast: true)
    }

    static func item(_ list: TodoCollection, titled title: String) throws -> TodoItem {
        try #require(list.items.first { $0.title == title }, "no \(title) in \(list.items.map(\.title))")
    }

    /// The tasks of a Taskwarrior export, by uuid.
    static func exportedTasks(_ json: String) throws -> [String: [String: Any]] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return Dictionary(array.map { ($0["uuid"] as? String ?? "", $0) }) { first, _ in first }
    }

    // MARK: Taskwarrior

    @Test func taskwarriorsDependsAndParentTaskNameTasksOfTheFile() throws {
        let text = Self.tasks(
            Self.task(Self.a, "Plan the trip", #""depends":["\#(Self.b)","\#(Self.c.uppercased())"]"#),
            Self.task(Self.b, "Book flights", #""parenttask":"\#(Self.a)""#),
            Self.task(Self.c, "Renew passport"))
        let batch = try TaskwarriorFormat.read(text, timeZone: .berlin)
        #expect(batch.items[0].links.map(\.target) == [.identity(Self.b), .identity(Self.c)])
        #expect(batch.items.allSatisfy { $0.remarks.isEmpty }, "\(batch.items.map(\.remarks))")
        let plan = try Self.plan(text, .taskwarrior, into: TodoCollection(items: [], nextID: TodoID(1)))
        #expect(plan.entries.allSatisfy { $0.remarks.isEmpty }, "\(plan.entries.map(\.remarks))")
        var list = TodoCollection(items: [], nextID: TodoID(1))
        list.apply(try #require(plan.step))
        let trip = try Self.item(list, titled: "Plan the trip")
        let flights = try Self.item(list, titled: "Book flights")
        let passport = try Self.item(list, titled: "Renew passport")
        #expect(trip.depends == [flights.id, passport.id])
        #expect(flights.parent == trip.id)
        #expect(list.items.allSatisfy { $0.foreign.isEmpty }, "\(list.items.map(\.foreign))")
        #expect(list.isBlocked(trip) && list.isBlocking(passport))
        #expect(list.links.children(of: trip.id) == [flights.id])
    }

    /// Taskwarrior 2.5 and before exported `depends` as one string.
    @Test func olderTaskwarriorsCommaSeparatedDependsIsRead() throws {
        let list = try Self.importing(
            Self.tasks(Self.task(Self.a, "a", #""depends":"\#(Self.b),\#(Self.c)""#), Self.task(Self.b, "b"), Self.task(Self.c, "c")),
            .taskwarrior)
        #expect(try Self.item(list, titled: "a").depends == [TodoID(2), TodoID(3)])
    }

    @Test func anExportNamesEachLinkedTaskByItsUUID() throws {
        let text = Self.tasks(
            Self.task(Self.a, "a", #""depends":["\#(Self.b)"]"#), Self.task(Self.b, "b", #""parenttask":"\#(Self.a)""#))
        var list = try Self.importing(text, .taskwarrior)
        // An item made here is named by the identity its export derives.
        let made = TodoItem(id: TodoID(3), title: "made here", createdAt: noon, values: ["depends": .items([TodoID(1)])])
        list.apply(UndoStep(description: "add", changes: [ItemChange(before: nil, after: made)]))
        var a = try Self.item(list, titled: "a")
        a.values["depends"] = .items([TodoID(2), TodoID(3)])
        list.apply(UndoStep(description: "modify", changes: [ItemChange(before: try Self.item(list, titled: "a"), after: a)]))

        let exported = Self.export(list, .taskwarrior)
        let tasks = try Self.exportedTasks(exported)
        let derived = ExternalIdentity.derived(TodoID(3), listID: listID)
        #expect(tasks[Self.a]?["depends"] as? [String] == [Self.b, derived], "\(exported)")
        #expect(tasks[Self.b]?["parenttask"] as? String == Self.a, "\(exported)")
        #expect(tasks[derived]?["depends"] as? [String] == [Self.a], "\(exported)")
        #expect(!exported.contains(#""depends":[2"#))
        // Read back into the list it came from, it changes nothing.
        let again = try Self.plan(exported, .taskwarrior, into: list)
        #expect(again.entries.map(\.action) == [.unchanged, .unchanged, .unchanged], "\(again.entries)")
        #expect(again.step == nil)
    }

    /// A UUID that names no task of the file or the list is kept as it came
    /// (in its form), said, and written back with the links todod has.
    @Test func aDependencyOnATaskNotThereIsKeptAsItCameAndSaid() throws {
        let text = Self.tasks(
            Self.task(Self.a, "a", #""depends":["\#(Self.b)","\#(Self.gone)"]"#), Self.task(Self.b, "b"),
            Self.task(Self.c, "c", #""depends":"\#(Self.gone)","parenttask":"\#(Self.gone)""#))
        let plan = try Self.plan(text, .taskwarrior, into: TodoCollection(items: [], nextID: TodoID(1)))
        // Named with what else is kept, as before todod read links, and why.
        #expect(plan.entries[0].remarks == [
            "kept as they came for Taskwarrior, unused by todod: depends",
            "depends \(Self.gone) kept as it came for Taskwarrior: no item of the file or the list has it",
        ])
        #expect(plan.entries[1].remarks.isEmpty)
        #expect(plan.entries[2].remarks == [
            "kept as they came for Taskwarrior, unused by todod: depends, parenttask",
            "depends \(Self.gone) kept as it came for Taskwarrior: no item of the file or the list has it",
            "parenttask \(Self.gone) kept as it came for Taskwarrior: no item of the file or the list has it",
        ])
        var list = TodoCollection(items: [], nextID: TodoID(1))
        list.apply(try #require(plan.step))
        let a = try Self.item(list, titled: "a")
        #expect(a.depends == [TodoID(2)])
        #expect(a.foreign.taskwarrior == ["depends": #"["\#(Self.gone)"]"#])
        let c = try Self.item(list, titled: "c")
        #expect(c.depends.isEmpty && c.parent == nil)
        #expect(c.foreign.taskwarrior == ["depends": #""\#(Self.gone)""#, "parenttask": #""\#(Self.gone)""#])

        let tasks = try Self.exportedTasks(Self.export(list, .taskwarrior))
        #expect(tasks[Self.a]?["depends"] as? [String] == [Self.b, Self.gone])
        #expect(tasks[Self.c]?["depends"] as? String == Self.gone)
        #expect(tasks[Self.c]?["parenttask"] as? String == Self.gone)
    }

    /// Some of an older string form resolved: the rest stays a string.
    @Test func whatStaysOfAStringOfUUIDsStaysAString() throws {
        let list = try Self.importing(
            Self.tasks(Self.task(Self.a, "a", #""depends":"\#(Self.b),\#(Self.gone)""#), Self.task(Self.b, "b")), .taskwarrior)
        #expect(try Self.item(list, titled: "a").foreign.taskwarrior == ["depends": #""\#(Self.gone)""#])
    }

    /// A task already in the list: imported before with that UUID, or made
    /// here (the identity its export derived).
    @Test func aLinkNamesATaskAlreadyInTheList() throws {
        let before = TodoItem(id: TodoID(7), title: "from before", createdAt: noon, externalID: Self.c)
        let made = TodoItem(id: TodoID(8), title: "made here", createdAt: noon)
        let list = TodoCollection(items: [before, made], nextID: TodoID(9))
        let derived = ExternalIdentity.derived(TodoID(8), listID: listID)
        let after = try Self.importing(
            Self.tasks(Self.task(Self.a, "a", #""depends":["\#(Self.c)","\#(derived)"],"parenttask":"\#(derived)""#)), .taskwarrior,
            into: list)
        let a = try Self.item(after, titled: "a")
        #expect(a.depends == [TodoID(7), TodoID(8)])
        #expect(a.parent == TodoID(8))
        #expect(a.foreign.isEmpty)
    }

    /// Importing a changed file again updates the links: the file says.
    @Test func aReimportUpdatesLinksAsTheFileHasThem() throws {
        let first = Self.tasks(
            Self.task(Self.a, "a", #""depends":["\#(Self.b)"]"#), Self.task(Self.b, "b"), Self.task(Self.c, "c"))
        var list = try Self.importing(first, .taskwarrior)
        #expect(try Self.plan(first, .taskwarrior, into: list).step == nil)
        let second = Self.tasks(
            Self.task(Self.a, "a", #""depends":["\#(Self.c)","\#(Self.gone)"]"#), Self.task(Self.b, "b", #""parenttask":"\#(Self.c)""#),
            Self.task(Self.c, "c"))
        let update = try Self.plan(second, .taskwarrior, into: list)
        #expect(update.entries.map(\.action) == [.update, .update, .unchanged])
        list.apply(try #require(update.step))
        let a = try Self.item(list, titled: "a")
        #expect(a.depends == [TodoID(3)])
        #expect(a.foreign.taskwarrior == ["depends": #"["\#(Self.gone)"]"#])
        #expect(a.fieldChangedAt[ItemField(rawValue: "depends")] == noon)
        #expect(try Self.item(list, titled: "b").parent == TodoID(3))
        // And the file that no longer has them takes them away.
        list = try Self.importing(Self.tasks(Self.task(Self.a, "a"), Self.task(Self.b, "b")), .taskwarrior, into: list)
        #expect(list.items.allSatisfy { $0.depends.isEmpty && $0.parent == nil && $0.foreign.isEmpty })
    }

    /// A task that depends on itself keeps that as it came; a cycle is kept,
    /// and the list's walks stop where they would go round.
    @Test func aLinkToItselfIsKeptAsItCameAndACycleIsKept() throws {
        let text = Self.tasks(
            Self.task(Self.a, "a", #""depends":["\#(Self.a)","\#(Self.b)"],"parenttask":"\#(Self.b)""#),
            Self.task(Self.b, "b", #""depends":["\#(Self.a)"],"parenttask":"\#(Self.a)""#))
        let plan = try Self.plan(text, .taskwarrior, into: TodoCollection(items: [], nextID: TodoID(1)))
        #expect(plan.entries[0].remarks == [
            "kept as they came for Taskwarrior, unused by todod: depends", "depends \(Self.a) kept as it came for Taskwarrior: it names the item itself",
        ])
        #expect(plan.entries[1].remarks.isEmpty)
        var list = TodoCollection(items: [], nextID: TodoID(1))
        list.apply(try #require(plan.step))
        let a = try #require(list[TodoID(1)])
        let b = try #require(list[TodoID(2)])
        #expect(a.depends == [TodoID(2)] && b.depends == [TodoID(1)])
        #expect(a.parent == TodoID(2) && b.parent == TodoID(1))
        #expect(a.foreign.taskwarrior == ["depends": #"["\#(Self.a)"]"#])
        #expect(list.isBlocked(a) && list.isBlocked(b))
        #expect(list.effectiveParent(of: a) == nil && list.effectiveParent(of: b) == nil)
        #expect(list.descendants(of: TodoID(1)).isEmpty && list.ancestors(of: a).isEmpty)
        // And it goes back to Taskwarrior as it came.
        let tasks = try Self.exportedTasks(Self.export(list, .taskwarrior))
        #expect(Set(tasks[Self.a]?["depends"] as? [String] ?? []) == [Self.a, Self.b])
    }

    @Test func moreLinksThanAnItemHoldsRefuseTheFile() throws {
        let many = (1...101).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        let text = Self.tasks(Self.task(Self.a, "a", #""depends":[\#(many.map { "\"\($0)\"" }.joined(separator: ","))]"#))
        #expect(throws: ImportProblem(location: "task 1", message: "depends names 101 tasks; an item links to at most 100")) {
            try TaskwarriorFormat.read(text, timeZone: .berlin)
        }
        let hundred = Self.tasks(Self.task(Self.a, "a", #""depends":[\#(many.prefix(100).map { "\"\($0)\"" }.joined(separator: ","))]"#))
        #expect(try TaskwarriorFormat.read(hundred, timeZone: .berlin).items[0].links.count == 100)
    }

    /// A `depends` that is no list of UUIDs is kept as it came, and said.
    @Test func aDependsOfAnotherFormIsKeptAndSaid() throws {
        let item = try #require(try TaskwarriorFormat.read(Self.tasks(Self.task(Self.a, "a", #""depends":7"#)), timeZone: .berlin).items.first)
        #expect(item.links.isEmpty)
        #expect(item.foreign.taskwarrior == ["depends": "7"])
        #expect(item.remarks.first == #"depends "7" not used: not a link to another item"#, "\(item.remarks)")
    }

    /// Taskwarrior 2.x's data files keep `depends` (and since 2.6 `dep_UUID`):
    /// read without Taskwarrior, the links are made as from an export.
    @Test func aDataDirectorysDependenciesAreLinks() throws {
        let pending = """
            [description:"a" entry:"1795776513" status:"pending" uuid:"\(Self.a)" dep_\(Self.b):"x" depends:"\(Self.b)"]
            [description:"b" entry:"1795776513" status:"pending" uuid:"\(Self.b)" parenttask:"\(Self.a)"]

            """
        let directory = try TaskwarriorDataDirectory(files: [.init(name: "pending.data", bytes: Array(pending.utf8))])
        let list = try Self.importing(directory.exportText, .taskwarrior)
        #expect(try Self.item(list, titled: "a").depends == [TodoID(2)])
        #expect(try Self.item(list, titled: "b").parent == TodoID(1))
    }

    // MARK: iCalendar

    @Test func relatedToIsAParentOrADependency() throws {
        let text = Self.calendar([
            ("trip", ["RELATED-TO;RELTYPE=DEPENDS-ON:flights", "RELATED-TO;RELTYPE=DEPENDS-ON:passport"]),
            ("flights", ["RELATED-TO:trip"]),
            ("passport", ["RELATED-TO;RELTYPE=parent:trip", "RELATED-TO;RELTYPE=SIBLING:flights", "RELATED-TO;RELTYPE=CHILD:trip"]),
        ])
        let plan = try Self.plan(text, .ical, into: TodoCollection(items: [], nextID: TodoID(1)))
        #expect(plan.entries[0].remarks.isEmpty && plan.entries[1].remarks.isEmpty, "\(plan.entries)")
        // Relations todod has no link for are kept, said as any property it does not read.
        #expect(plan.entries[2].remarks == ["kept as they came for calendars, unused by todod: RELATED-TO"])
        var list = TodoCollection(items: [], nextID: TodoID(1))
        list.apply(try #require(plan.step))
        #expect(list[TodoID(1)]?.depends == [TodoID(2), TodoID(3)])
        #expect(list[TodoID(2)]?.parent == TodoID(1))
        #expect(list[TodoID(3)]?.parent == TodoID(1))
        #expect(list[TodoID(1)]?.foreign.isEmpty == true && list[TodoID(2)]?.foreign.isEmpty == true)
        #expect(list[TodoID(3)]?.foreign.icalendar == ["RELATED-TO;RELTYPE=SIBLING:flights", "RELATED-TO;RELTYPE=CHILD:trip"])

        let exported = Self.export(list, .ical)
        let lines = exported.components(separatedBy: "\r\n")
        #expect(lines.filter { $0.hasPrefix("RELATED-TO") } == [
            "RELATED-TO;RELTYPE=DEPENDS-ON:flights", "RELATED-TO;RELTYPE=DEPENDS-ON:passport", "RELATED-TO;RELTYPE=PARENT:trip",
            "RELATED-TO;RELTYPE=PARENT:trip", "RELATED-TO;RELTYPE=SIBLING:flights", "RELATED-TO;RELTYPE=CHILD:trip",
        ], "\(exported)")
        let again = try Self.plan(exported, .ical, into: list)
        #expect(again.entries.map(\.action) == [.unchanged, .unchanged, .unchanged], "\(again.entries)")
    }

    /// A UID that names no to-do stays as its line came, parameters and
    /// all, and is said; a second parent too.
    @Test func aRelatedToNamingNoToDoIsKeptAsItCame() throws {
        let text = Self.calendar([
            ("a", ["RELATED-TO;RELTYPE=DEPENDS-ON;X-WHY=\"because;so\":missing@example.com", "RELATED-TO;RELTYPE=DEPENDS-ON:b"]),
            ("b", ["RELATED-TO;RELTYPE=PARENT:a", "RELATED-TO;RELTYPE=PARENT:c"]),
            ("c", []),
        ])
        let plan = try Self.plan(text, .ical, into: TodoCollection(items: [], nextID: TodoID(1)))
        #expect(plan.entries[0].remarks == [
            "kept as they came for calendars, unused by todod: RELATED-TO",
            "RELATED-TO missing@example.com kept as it came for calendars: no item of the file or the list has it",
        ])
        #expect(plan.entries[1].remarks == [
            "kept as they came for calendars, unused by todod: RELATED-TO", "RELATED-TO c kept as it came for calendars: an item has one parent",
        ])
        var list = TodoCollection(items: [], nextID: TodoID(1))
        list.apply(try #require(plan.step))
        #expect(list[TodoID(1)]?.depends == [TodoID(2)])
        #expect(list[TodoID(1)]?.foreign.icalendar == [#"RELATED-TO;RELTYPE=DEPENDS-ON;X-WHY="because;so":missing@example.com"#])
        #expect(list[TodoID(2)]?.parent == TodoID(1))
        #expect(list[TodoID(2)]?.foreign.icalendar == ["RELATED-TO;RELTYPE=PARENT:c"])
        let lines = Self.export(list, .ical).components(separatedBy: "\r\n")
        #expect(lines.contains(#"RELATED-TO;RELTYPE=DEPENDS-ON;X-WHY="because;so":missing@example.com"#))
        #expect(lines.contains("RELATED-TO;RELTYPE=DEPENDS-ON:b") && lines.contains("RELATED-TO;RELTYPE=PARENT:c"))
    }

    @Test func aCalendarsLinksToItemsAlreadyInTheListAndToItself() throws {
        let before = TodoItem(id: TodoID(4), title: "from before", createdAt: noon, externalID: "earlier@example.com")
        let plan = try Self.plan(
            Self.calendar([("a", ["RELATED-TO:earlier@example.com", "RELATED-TO;RELTYPE=DEPENDS-ON:a"])]), .ical,
            into: TodoCollection(items: [before], nextID: TodoID(5)))
        #expect(plan.entries[0].remarks == [
            "kept as they came for calendars, unused by todod: RELATED-TO", "RELATED-TO a kept as it came for calendars: it names the item itself",
        ])
        let added = try #require(plan.step?.changes.first?.after)
        #expect(added.parent == TodoID(4) && added.depends.isEmpty)
        #expect(added.foreign.icalendar == ["RELATED-TO;RELTYPE=DEPENDS-ON:a"])
    }

    @Test func moreRelatedToThanAnItemHoldsRefuseTheFile() throws {
        let many = (1...101).map { "RELATED-TO;RELTYPE=DEPENDS-ON:x\($0)" }
        #expect(throws: ImportProblem(
            location: "to-do 1 (line 3)", message: "more than 100 RELATED-TO;RELTYPE=DEPENDS-ON; an item links to at most 100")) {
            try ICalendarFormat.read(Self.calendar([("a", many)]), timeZone: .berlin)
        }
        // Relations todod has no link for are not links, and not counted.
        let siblings = (1...101).map { "RELATED-TO;RELTYPE=SIBLING:x\($0)" }
        #expect(try ICalendarFormat.read(Self.calendar([("a", siblings)]), timeZone: .berlin).items[0].links.isEmpty)
    }

    // MARK: todo.txt

    /// topydo's example: the telephone must be bought before Mom is called.
    @Test func todoTxtReadsTopydosDependencies() throws {
        let text = "(B) Call mom id:1\n(B) Buy telephone p:1\nPlan trip id:t\nBook flights parent:t p:1\n"
        let batch = try TodoTxtFormat.read(text, timeZone: .berlin)
        #expect(batch.items.map(\.title) == ["Call mom", "Buy telephone", "Plan trip", "Book flights"])
        #expect(batch.items.allSatisfy { $0.remarks.isEmpty }, "\(batch.items.map(\.remarks))")
        let list = try Self.importing(text, .todotxt)
        #expect(list[TodoID(1)]?.depends == [TodoID(2), TodoID(4)])
        #expect(list[TodoID(4)]?.parent == TodoID(3))
        #expect(list[TodoID(3)]?.depends.isEmpty == true)
    }

    /// A link word that names no line, its own line, or a second parent
    /// stays in the title, where it was, and is said.
    @Test func aTodoTxtLinkNamingNoLineStaysInTheTitle() throws {
        let text = "call p:9 Bob\nwrite id:2 p:2 report\nfile taxes id:3\nsort receipts parent:3 parent:2\n"
        let batch = try TodoTxtFormat.read(text, timeZone: .berlin)
        #expect(batch.items.map(\.title) == ["call p:9 Bob", "write p:2 report", "file taxes", "sort receipts parent:2"])
        #expect(batch.items[0].remarks == ["p:9 kept in the title: no line has id:9"])
        #expect(batch.items[1].remarks == ["p:2 kept in the title: it names its own line"])
        #expect(batch.items[3].remarks == ["parent:2 kept in the title: an item has one parent"])
        let list = try Self.importing(text, .todotxt)
        #expect(list[TodoID(4)]?.parent == TodoID(3))
        #expect(list.items.allSatisfy { $0.depends.isEmpty })
        // Written back as it came, the title's words where they were.
        let lines = Self.export(list, .todotxt).split(separator: "\n").map { $0.drop { $0 != " " }.dropFirst() }
        #expect(lines == ["call p:9 Bob", "write p:2 report", "file taxes id:3", "sort receipts parent:2 parent:3"])
    }

    @Test func todoTxtWritesLinksAsLabelsAndReadsThemBack() throws {
        let items = [
            TodoItem(id: TodoID(1), title: "Plan the trip", createdAt: noon, values: ["depends": .items([TodoID(2), TodoID(4)])]),
            TodoItem(id: TodoID(2), title: "Book flights", createdAt: noon, values: ["parent": .items([TodoID(1)])]),
            TodoItem(id: TodoID(3), title: "Water plants", createdAt: noon, tags: ["home"]),
            TodoItem(id: TodoID(4), title: "Renew passport", createdAt: noon, values: ["depends": .items([TodoID(2)])]),
        ]
        let list = TodoCollection(items: items, nextID: TodoID(5))
        let text = Self.export(list, .todotxt)
        #expect(text == """
            2026-11-22 Plan the trip id:1
            2026-11-22 Book flights p:1 p:4 parent:1
            2026-11-22 Water plants @home
            2026-11-22 Renew passport id:4 p:1

            """)
        // An item with no link writes what it wrote before links were written.
        let unlinked = ExportDocument(format: .todotxt, listID: listID, timeZone: .berlin, now: noon, version: "test")
            .text(of: [items[2]], itemsBefore: 0, isLast: true)
        #expect(text.contains(unlinked))

        // Into a new list: the same links, between the new ids.
        let copy = try Self.importing(text, .todotxt, into: TodoCollection(items: [], nextID: TodoID(10)))
        #expect(copy[TodoID(10)]?.depends == [TodoID(11), TodoID(13)])
        #expect(copy[TodoID(11)]?.parent == TodoID(10))
        #expect(copy[TodoID(13)]?.depends == [TodoID(11)])
        #expect(copy.items.map(\.title).sorted() == items.map(\.title).sorted())
        // Into the list it came from: nothing changes.
        let again = try Self.plan(text, .todotxt, into: list)
        #expect(again.entries.map(\.action) == [.unchanged, .unchanged, .unchanged, .unchanged], "\(again.entries)")
        // A line's links are no part of its identity: without them it is
        // the same item, and its links are taken away.
        let bare = try Self.plan("Plan the trip\nBook flights\n", .todotxt, into: list)
        #expect(bare.entries.map(\.action) == [.update, .update])
        #expect(bare.entries.map(\.id) == [TodoID(1), TodoID(2)])
    }

    /// An item imported before links were read kept `p:1` in its title;
    /// it is still the same line.
    @Test func aLineImportedBeforeLinksWereReadIsKnownAgain() throws {
        let old = TodoItem(id: TodoID(5), title: "Buy telephone p:1", createdAt: noon)
        let plan = try Self.plan("Call mom id:1\nBuy telephone p:1\n", .todotxt, into: TodoCollection(items: [old], nextID: TodoID(6)))
        #expect(plan.entries.map(\.action) == [.add, .update])
        #expect(plan.entries[1].id == TodoID(5) && plan.entries[1].title == "Buy telephone")
        #expect(plan.step?.changes.first?.after?.depends == [TodoID(5)])
    }

    @Test func moreTodoTxtDependenciesThanAnItemHoldsRefuseTheFile() throws {
        let text = "a id:1\n" + (1...101).map { "b\($0) p:1\n" }.joined()
        #expect(throws: ImportProblem(location: "line 1", message: "more than 100 lines carry p:1; an item depends on at most 100")) {
            try TodoTxtFormat.read(text, timeZone: .berlin)
        }
    }

    /// A parent set in todod replaces one kept for Taskwarrior (a task has one).
    @Test func aParentSetHereReplacesOneKeptAsItCame() throws {
        var list = try Self.importing(
            Self.tasks(Self.task(Self.a, "a", #""parenttask":"\#(Self.gone)""#), Self.task(Self.b, "b")), .taskwarrior)
        var a = try #require(list[TodoID(1)])
        #expect(a.foreign.taskwarrior == ["parenttask": #""\#(Self.gone)""#])
        a.values["parent"] = .items([TodoID(2)])
        list.apply(UndoStep(description: "modify", changes: [ItemChange(before: list[TodoID(1)], after: a)]))
        #expect(try Self.exportedTasks(Self.export(list, .taskwarrior))[Self.a]?["parenttask"] as? String == Self.b)
    }

    /// An export given no list names targets by the identity derived from
    /// their ids, and a todo.txt line then carries no links: the list is
    /// what knows who depends on an item.
    @Test func anExportWithoutTheListWritesNoTodoTxtLinks() throws {
        let items = [
            TodoItem(id: TodoID(1), title: "a", createdAt: noon, values: ["depends": .items([TodoID(2)])]),
            TodoItem(id: TodoID(2), title: "b", createdAt: noon),
        ]
        func export(_ format: InterchangeFormat) -> String {
            ExportDocument(format: format, listID: listID, timeZone: .berlin, now: noon, version: "test").text(of: items, itemsBefore: 0, isLast: true)
        }
        #expect(export(.todotxt) == "2026-11-22 a\n2026-11-22 b\n")
        let derived = ExternalIdentity.derived(TodoID(2), listID: listID)
        #expect(try Self.exportedTasks(export(.taskwarrior))[ExternalIdentity.derived(TodoID(1), listID: listID)]?["depends"] as? [String] == [derived])
        #expect(export(.ical).contains("RELATED-TO;RELTYPE=DEPENDS-ON:\(derived)\r\n"))
    }

    // MARK: All formats

    /// Links made in todod go out in each format and come back, between
    /// the items the file makes, into an empty list.
    @Test(arguments: InterchangeFormat.allCases)
    func linksMadeHereRoundTrip(format: InterchangeFormat) throws {
        let items = [
            TodoItem(id: TodoID(1), title: "Plan the trip", createdAt: noon, values: ["depends": .items([TodoID(3), TodoID(2)])]),
            TodoItem(id: TodoID(2), title: "Book flights", createdAt: noon, values: ["parent": .items([TodoID(1)])]),
            TodoItem(id: TodoID(3), title: "Renew passport", createdAt: noon, values: ["parent": .items([TodoID(1)])]),
            TodoItem(id: TodoID(4), title: "Water plants", createdAt: noon),
        ]
        let list = TodoCollection(items: items, nextID: TodoID(5))
        let text = Self.export(list, format)
        let copy = try Self.importing(text, format, into: TodoCollection(items: [], nextID: TodoID(21)))
        func linksByTitle(_ list: TodoCollection) -> [String: [String]] {
            var links: [String: [String]] = [:]
            for item in list.items {
                links[item.title] = item.depends.compactMap { list[$0]?.title }.sorted() + (item.parent.flatMap { list[$0] }.map { ["parent " + $0.title] } ?? [])
            }
            return links
        }
        #expect(linksByTitle(copy) == linksByTitle(list), "\(text)")
        #expect(copy.items.allSatisfy { $0.foreign.isEmpty })
        #expect(try Self.plan(text, format, into: list).step == nil)
    }
}
