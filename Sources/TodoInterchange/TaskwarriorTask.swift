/// One task as `task export` writes it. Every field is optional here so
/// that a missing one is reported by name (`TaskwarriorFormat.read`) rather
/// than as a decoding error; unknown fields (user-defined attributes) are ignored.
struct TaskwarriorTask: Codable {
    var id: Int?
    var uuid: String?
    var description: String?
    var status: String?
    var entry: String?
    var modified: String?
    var end: String?
    var due: String?
    var wait: String?
    var scheduled: String?
    var until: String?
    var tags: [String]?
    var project: String?
    var priority: String?
    var annotations: [Annotation]?
    var recur: String?
    var rtype: String?
    var mask: String?
    /// The parent of a recurring task's occurrence.
    var parent: String?
    /// todod's own text of a repetition Taskwarrior cannot say ("weekly from completion").
    var todod_recur: String?

    struct Annotation: Codable {
        var entry: String?
        var description: String?
    }
}
