/// The texts of the "new item" prompt (the seed's alert), for clients that
/// ask for a title interactively, e.g. `todoctl add` with no argument.
public struct AddPromptViewModel: Codable, Hashable, Sendable {
    public var title = "New To-Do Item"
    public var message = "Insert the title of the new to-do item:"
    public var action = "OK"
    /// Shown when the entered title is blank; the prompt then asks again.
    public var blankTitleMessage = "The title is blank. Type at least one visible character, or press Ctrl-C to cancel."

    public init() {}
}
