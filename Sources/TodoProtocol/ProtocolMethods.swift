/// Every method todod serves, each listed once, here. What else names
/// methods is derived from this list: `rpc.describe` and
/// `Protocol/schema/todod.schema.json` (`ProtocolDescription`), the method
/// table of PROTOCOL.md (`ProtocolDescription.methodTable`), the methods a
/// `transaction` may hold, the daemon's dispatch (`OwnerMethods` in
/// TodoDaemon), and `todoctl call`'s completion and help.
///
/// ## Adding a method
///
/// 1. Declare it: a type conforming to `RPCMethod`, next to its kin in
///    `Methods/`, with its name, doc line (`summary`), `Params` and `Result`
///    with their JSON Schemas, the errors it can answer with, and
///    `isTransactable` if a `transaction` may hold it.
/// 2. Add it to `all` below. Where it goes decides where it appears in the
///    schema's `ClientMessage` and in PROTOCOL.md's table.
/// 3. Give it its logic in the owner: conform it to `OwnerMethod` (or to
///    `CommandMethod`, if it is one `TodoCommand`, one undo step) in
///    `Sources/TodoOwner/Methods/`.
/// 4. Write its tests, and regenerate the schema (`todod --print-schema >
///    Protocol/schema/todod.schema.json`) and the method table in
///    PROTOCOL.md (`todod --print-method-table`): tests fail until both agree.
public enum ProtocolMethods {
    public static let all: [any RPCMethod.Type] = [
        AddTodo.self, EditTodo.self, SetTodoDone.self, SetTodoDue.self, ModifyTodo.self, AddTodoNote.self,
        RemoveTodoNote.self, RemoveTodo.self, GetTodo.self,
        ToggleAll.self, ClearCompleted.self, Undo.self, Redo.self,
        Transaction.self, ImportTodos.self, ExportTodos.self, ApplySync.self, SyncLeaseMethod.self,
        GetListView.self, SubscribeListView.self, UnsubscribeListView.self, SetViewOptions.self,
        SaveView.self, ListViews.self, RemoveView.self, GetAddPrompt.self, ParseDate.self,
        SnoozeReminder.self, DismissReminder.self,
        DescribeProtocol.self, ServerStatus.self,
    ]

    /// Every method's name, in the order of `all`.
    public static let names = all.map { $0.name }

    /// The methods a `transaction` may hold, in the order of `all`.
    public static let transactable = all.filter { $0.isTransactable }
}
