import Foundation
import Testing
import TodoModel

/// The links between items as the collection reads them: parents that
/// exist and do not go round, subtasks at every level, blocked and
/// blocking, and `depends:` text read as additions and removals.
@Suite struct ItemLinksTests {
    let now = Date(timeIntervalSince1970: 1_795_345_200)

    private func item(_ id: Int64, parent: Int64? = nil, depends: [Int64] = [], done: Bool = false) -> TodoItem {
        var item = TodoItem(id: TodoID(id), title: "item \(id)", createdAt: now)
        if let parent { item.values["parent"] = .items([TodoID(parent)]) }
        if !depends.isEmpty { item.values["depends"] = .items(depends.map { TodoID($0) }) }
        if done { _ = item.setDone(true, at: now) }
        return item
    }

    @Test func aParentThatIsMissingOrGoesRoundPlacesTheItemAtTheTop() {
        let items = TodoCollection(
            items: [item(1, parent: 2), item(2, parent: 1), item(3, parent: 1), item(4, parent: 99), item(5, parent: 5)],
            nextID: TodoID(6))
        #expect(items.effectiveParent(of: items[TodoID(1)]!) == nil)
        #expect(items.effectiveParent(of: items[TodoID(2)]!) == nil)
        #expect(items.effectiveParent(of: items[TodoID(3)]!) == TodoID(1))
        #expect(items.effectiveParent(of: items[TodoID(4)]!) == nil)
        #expect(items.effectiveParent(of: items[TodoID(5)]!) == nil)
        #expect(items.ancestors(of: items[TodoID(3)]!) == [TodoID(1)])
        #expect(items.descendants(of: TodoID(1)) == [TodoID(3)])
    }

    @Test func subtasksAtEveryLevelParentsFirst() {
        let items = TodoCollection(
            items: [item(1), item(2, parent: 1), item(3, parent: 2), item(4, parent: 1), item(5, parent: 3)], nextID: TodoID(6))
        let under = items.descendants(of: TodoID(1))
        #expect(Set(under) == [TodoID(2), TodoID(3), TodoID(4), TodoID(5)])
        #expect(under.firstIndex(of: TodoID(2))! < under.firstIndex(of: TodoID(3))!)
        #expect(under.firstIndex(of: TodoID(3))! < under.firstIndex(of: TodoID(5))!)
        #expect(items.ancestors(of: items[TodoID(5)]!) == [TodoID(3), TodoID(2), TodoID(1)])
        #expect(items.links.children(of: TodoID(1)) == [TodoID(2), TodoID(4)])
    }

    @Test func blockedAndBlockingCountOnlyOpenItemsThatExist() {
        let items = TodoCollection(
            items: [item(1), item(2, done: true), item(3, depends: [1, 2]), item(4, depends: [2, 77]), item(5, depends: [1], done: true)],
            nextID: TodoID(6))
        #expect(items.isBlocked(items[TodoID(3)]!))
        #expect(!items.isBlocked(items[TodoID(4)]!), "a done or missing dependency blocks nothing")
        #expect(!items.isBlocked(items[TodoID(5)]!), "a done item is not blocked")
        #expect(items.isBlocking(items[TodoID(1)]!))
        #expect(!items.isBlocking(items[TodoID(2)]!), "a done item blocks nothing")
        #expect(items.links.dependents(of: TodoID(1)) == [TodoID(3), TodoID(5)])
    }

    @Test func applyingChangesKeepsTheReverseIndexInStep() {
        var items = TodoCollection(items: [item(1), item(2, parent: 1, depends: [1])], nextID: TodoID(3))
        items.apply(UndoStep(description: "", changes: [ItemChange(before: items[TodoID(2)], after: item(2))]))
        #expect(items.links.isEmpty)
        items.apply(UndoStep(description: "", changes: [ItemChange(before: nil, after: item(3, parent: 1))]))
        #expect(items.links.children(of: TodoID(1)) == [TodoID(3)])
        items.apply(UndoStep(description: "", changes: [ItemChange(before: items[TodoID(3)], after: nil)]))
        #expect(items.links.isEmpty)
    }

    @Test(arguments: [
        ("3", [3], []), ("3,5", [3, 5], []), ("-3", [], [3]), ("3,-5,7", [3, 7], [5]),
    ] as [(String, [Int64], [Int64])])
    func dependsTextIsAdditionsAndRemovals(text: String, add: [Int64], remove: [Int64]) throws {
        let change = try #require(FieldKind.linkChange(text))
        #expect(change.add == add.map { TodoID($0) })
        #expect(change.remove == remove.map { TodoID($0) })
    }

    @Test(arguments: ["", "x", "3,", ",3", "0", "-0", "3.5", "--3", "99999999999999999999"])
    func dependsTextThatIsNoIdsIsRefused(text: String) {
        #expect(FieldKind.linkChange(text) == nil)
    }

    @Test func anItemHoldsAtMostAHundredLinks() {
        let many = (1...101).map(String.init).joined(separator: ",")
        #expect(FieldKind.linkChange(many) == nil)
        #expect(FieldKind.linkChangeError(many).description.contains("at most 100"))
    }
}
