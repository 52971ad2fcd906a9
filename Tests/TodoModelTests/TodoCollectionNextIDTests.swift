import Foundation
import Testing
import TodoModel

/// `restoreNextID`: after adds are taken back, the next id is the one
/// before them, unless an item still holds an id at or above it.
@Suite struct TodoCollectionNextIDTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func added(_ count: Int, to collection: inout TodoCollection) throws -> [UndoStep] {
        try (0..<count).map { index in
            let step = try collection.add(title: "item \(index)", due: nil, at: now)
            collection.apply(step)
            return step
        }
    }

    @Test func takingBackTheNewestAddsPutsTheirIDsBack() throws {
        var collection = TodoCollection(items: [], nextID: TodoID(1))
        _ = try added(3, to: &collection)
        let before = collection.nextID
        let steps = try added(2, to: &collection)
        #expect(collection.nextID == TodoID(before.rawValue + 2))
        for step in steps.reversed() { collection.apply(step.inverse) }
        collection.restoreNextID(before)
        #expect(collection.nextID == before)
        #expect(try collection.add(title: "again", due: nil, at: now).changes.first?.after?.id == before)
    }

    @Test func anItemAboveTheRestoredIDKeepsTheNextIDAboveIt() throws {
        var collection = TodoCollection(items: [], nextID: TodoID(1))
        let before = collection.nextID
        let steps = try added(4, to: &collection)
        // Only the first add is taken back: ids 2 to 4 are still held.
        collection.apply(steps[0].inverse)
        collection.restoreNextID(before)
        #expect(collection.nextID == TodoID(5))
    }

    @Test func aFarAwayIDIsFoundByAScanOfTheItems() throws {
        // The gap from the restored id to the next is larger than the list:
        // the items are scanned instead of the ids.
        let far = TodoItem(id: TodoID(1_000_000), title: "imported", createdAt: now)
        var collection = TodoCollection(items: [far], nextID: TodoID(1))
        #expect(collection.nextID == TodoID(1_000_001))
        collection.restoreNextID(TodoID(5))
        #expect(collection.nextID == TodoID(1_000_001))
        collection.apply(UndoStep(description: "delete", changes: [ItemChange(before: far, after: nil)]))
        collection.restoreNextID(TodoID(5))
        #expect(collection.nextID == TodoID(5))
    }

    @Test func aLargerRestoredIDIsKept() {
        var collection = TodoCollection(items: [], nextID: TodoID(3))
        collection.restoreNextID(TodoID(10))
        #expect(collection.nextID == TodoID(10))
    }
}
