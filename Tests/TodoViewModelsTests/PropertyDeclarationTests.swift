import Foundation
import Testing
import TodoViewModels
import TodoViewState

/// The list view model's properties are declared once; these check that the
/// declarations cover the struct exactly and that what is derived from them
/// (change keys, Codable) treats every property alike.
@Suite struct PropertyDeclarationTests {
    /// Two values that differ in every property, nullable ones nil in `a`.
    /// A new property must differ here too (the first test checks it).
    static let a = TodoListProperties(
        filter: .all, query: "", sort: .created, grouping: nil, itemsLeft: "0 items left", activeCount: 0,
        completedCount: 0, totalCount: 0, overdueCount: 0, overdueText: "0 overdue", dueTodayCount: 0,
        dueTodayText: "nothing due today", tagCounts: [], projectCounts: [],
        allDone: false, canClearCompleted: false, emptyText: nil, canUndo: false, undoText: nil, canRedo: false,
        redoText: nil, alerts: [], alertCount: 0)
    static let b = TodoListProperties(
        filter: .completed, query: "+home", sort: .due, grouping: .project, itemsLeft: "2 items left", activeCount: 2,
        completedCount: 1, totalCount: 3, overdueCount: 1, overdueText: "1 overdue", dueTodayCount: 1,
        dueTodayText: "1 due today", tagCounts: [NameCount(name: "home", count: 2)],
        projectCounts: [NameCount(name: "garden", count: 1)],
        allDone: true, canClearCompleted: true, emptyText: "Nothing here", canUndo: true, undoText: "Undo add “a”",
        canRedo: true, redoText: "Redo add “b”", alerts: [ReminderAlert(id: 1, condition: .overdue, message: "“a” is overdue")],
        alertCount: 1,
        desktopReminders: [DesktopReminder(id: 1, condition: .overdue, summary: "a", body: "overdue", urgency: .critical)])

    @Test func theSamplesDifferInEveryStoredProperty() {
        let differing = zip(Mirror(reflecting: Self.a).children, Mirror(reflecting: Self.b).children)
            .filter { String(describing: $0.value) == String(describing: $1.value) }
            .map { $0.0.label ?? "?" }
        #expect(differing == [], "a and b agree on these; make them differ")
    }

    /// A stored property without a declaration would never reach a client;
    /// two declarations of one name would collide on the wire.
    @Test func everyStoredPropertyIsDeclaredOnceUnderItsOwnNameInOrder() {
        let stored = Mirror(reflecting: Self.a).children.map { $0.label ?? "?" }
        #expect(TodoListProperties.names == stored)
        #expect(Set(TodoListProperties.names).count == TodoListProperties.names.count)
    }

    /// Each declaration reads and writes its own property (a key path
    /// pointing at a neighbour fails here), and together they carry all of
    /// the value.
    @Test func eachDeclarationChangesItsOwnPropertyAndTogetherTheyCoverTheValue() {
        #expect(Self.b.changedKeys(since: Self.a) == TodoListProperties.names)
        #expect(Self.a.changedKeys(since: Self.a) == [])
        var copy = Self.a
        for property in TodoListProperties.declarations {
            var one = Self.a
            property.copyValue(from: Self.b, to: &one)
            #expect(one.changedKeys(since: Self.a) == [property.name])
            #expect(property.differs(one, from: Self.a))
            property.copyValue(from: Self.b, to: &copy)
        }
        #expect(copy == Self.b)
    }

    @Test func wireTypesFollowTheSwiftTypes() {
        let types = Dictionary(uniqueKeysWithValues: TodoListProperties.declarations.map { ($0.name, $0.wireType) })
        #expect(types["filter"] == .enumeration(["all", "active", "completed"]))
        #expect(types["sort"] == .named("ListSort"))
        #expect(types["grouping"] == .nullable(.enumeration(["project"])))
        #expect(types["tagCounts"] == .array(.named("NameCount")))
        #expect(types["itemsLeft"] == .string)
        #expect(types["activeCount"] == .integer)
        #expect(types["allDone"] == .boolean)
        #expect(types["emptyText"] == .nullable(.string))
        #expect(types["alerts"] == .array(.named("ReminderAlert")))
        #expect(TodoListProperties.declarations.allSatisfy { !$0.doc.isEmpty })
    }

    /// Every property is written, nil ones as null, and read back.
    @Test func codableWritesEveryPropertyNullsIncludedAndReadsThemBack() throws {
        for value in [Self.a, Self.b] {
            let data = try JSONEncoder().encode(value)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(Set(object.keys) == Set(TodoListProperties.names))
            #expect(try JSONDecoder().decode(TodoListProperties.self, from: data) == value)
        }
        let nulls = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.a)) as? [String: Any])
        #expect(["emptyText", "undoText", "redoText"].allSatisfy { nulls[$0] is NSNull })
    }

    /// A missing nullable property reads as nil, like a plain optional; a
    /// missing other property is an error, not a made-up value.
    @Test func aMissingNullablePropertyIsNilAndAMissingOtherOneIsAnError() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.b)) as? [String: Any])
        object["undoText"] = nil
        var expected = Self.b
        expected.undoText = nil
        #expect(try JSONDecoder().decode(TodoListProperties.self, from: JSONSerialization.data(withJSONObject: object)) == expected)
        object["itemsLeft"] = nil
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TodoListProperties.self, from: JSONSerialization.data(withJSONObject: object))
        }
    }
}
