import Foundation
import Testing
import TodoModel
import TodoOwner
import TodoProtocol
import TodoStoreInterface
import TodoViewModels

/// A shared list reloaded under its subscribers (a backup restored, a list
/// copied over it), driven bare: what the instance would lose is found
/// before, and every subscriber gets the new list as a reset after.
@Suite struct OwnerStateReloadTests {
    static let created = Date(timeIntervalSince1970: 1_800_000_000)
    static func item(_ id: Int64, _ title: String) -> TodoItem { TodoItem(id: TodoID(id), title: title, createdAt: created) }

    static func shared(_ items: [TodoItem], epoch: String, revision: Int) -> SharedSnapshot {
        SharedSnapshot(
            snapshot: ListSnapshot(items: items, nextID: TodoID((items.map(\.id.rawValue).max() ?? 0) + 1)), epoch: epoch, revision: revision)
    }

    var owner = OwnerState(
        loaded: LoadedList(
            snapshot: shared([item(1, "milk"), item(2, "bread"), item(3, "eggs")], epoch: "before", revision: 5).snapshot, resumeRecord: nil,
            shared: (epoch: "before", revision: 5), instance: "laptop"))

    @Test mutating func whatTheDatabaseLacksOrHoldsOtherwiseIsFoundBeforeTheReload() {
        let restored = Self.shared([Self.item(1, "milk"), Self.item(3, "eggs, a dozen")], epoch: "restored", revision: 2)
        #expect(owner.itemsLeftBehind(by: restored.snapshot).map(\.title) == ["bread", "eggs"])
        #expect(owner.itemsLeftBehind(by: Self.shared([Self.item(1, "milk"), Self.item(2, "bread"), Self.item(3, "eggs")], epoch: "x", revision: 9).snapshot).isEmpty)
    }

    @Test mutating func everySubscriberIsResetToTheReloadedListAtItsRevision() throws {
        var connections = RecordedConnections()
        let lines = connections.connect(1, to: &owner)
        owner.handle(IncomingLine.parse(Data(#"{"jsonrpc":"2.0","id":1,"method":"view.subscribe","params":{}}"#.utf8)), from: 1)
        connections.endTurn(of: &owner)
        #expect(lines.replies.count == 1)

        owner.reload(Self.shared([Self.item(1, "milk")], epoch: "restored", revision: 2), notice: "the list went back; reloaded it")
        connections.endTurn(of: &owner)
        let reset = try #require(lines.events.last)
        #expect(reset.contains("milk") && !reset.contains("bread") && reset.contains(#""revision":2"#), "\(reset)")
        #expect(owner.epoch == "restored" && owner.revision == 2 && owner.publishedRevision == 2)
        #expect(owner.viewModel.itemCount == 1)
        #expect(owner.notices == ["the list went back; reloaded it"])
        owner.addNotice("the list went back; reloaded it")
        #expect(owner.notices.count == 1, "the same notice is told once")
    }
}
