import TodoInterchange

/// The to-dos of a `todo.export` in iCalendar: the list as the sync
/// compares it with the server, by UID.
public enum ExportedTodos {
    /// Every `VTODO` of `text`, by its UID (one without is left out: todod
    /// writes a UID for every item).
    public static func parse(_ text: String) throws(ResourceProblem) -> [String: TodoComponent] {
        let lines: [ContentLine]
        do { lines = try ContentLine.parse(text) } catch { throw ResourceProblem("\(error.location): \(error.message)") }
        var todos: [String: TodoComponent] = [:]
        var start: Int?
        var depth = 0
        for (index, line) in lines.enumerated() {
            if line.name == "BEGIN" {
                depth += 1
                if depth == 2, line.value.uppercased() == "VTODO" { start = index }
            } else if line.name == "END" {
                if depth == 2, let begun = start {
                    let todo = TodoComponent(lines: lines[(begun + 1)..<index])
                    if let uid = todo.uid { todos[uid] = todo }
                    start = nil
                }
                depth -= 1
            }
        }
        return todos
    }
}
