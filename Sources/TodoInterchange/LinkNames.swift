import TodoModel

/// How an export names the items links point to (`depends`, `parent`): by
/// the identity each format gives items, which is the target's own, so the
/// list is needed, not only the item that links. A target the list does
/// not have (or an export given no list) is named by the identity derived
/// from its id, as an item made here is.
struct LinkNames {
    var listID: String
    /// The whole list, or nil when the export was not given one.
    var list: TodoCollection?

    /// The identity an export gives the item `id` (a calendar's UID).
    func identity(of id: TodoID) -> String {
        list?[id].map { ExternalIdentity.of($0, listID: listID) } ?? ExternalIdentity.derived(id, listID: listID)
    }

    /// The UUID a Taskwarrior export gives the item `id`.
    func uuid(of id: TodoID) -> String {
        list?[id].map { ExternalIdentity.uuid(of: $0, listID: listID) } ?? ExternalIdentity.derived(id, listID: listID)
    }

    /// The items whose `depends` names `id`, in id order (todo.txt writes
    /// the link on the item depended on); none without a list.
    func dependents(of id: TodoID) -> [TodoID] {
        list?.links.dependents(of: id).sorted() ?? []
    }

    /// Whether any item has `id` as its parent.
    func hasChildren(_ id: TodoID) -> Bool {
        list.map { !$0.links.children(of: id).isEmpty } ?? false
    }
}
