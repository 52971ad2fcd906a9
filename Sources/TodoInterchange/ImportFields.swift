import TodoModel

/// Makes what another tool wrote fit todod's rules for titles, tags,
/// projects and notes. What a person would lose by a refusal but not by a
/// small change (a tag with a dot, a project with a space) is changed and
/// said in the item's remarks; what cannot be changed without changing its
/// meaning (a title too long or blank) is an `ImportProblem`.
enum ImportFields {
    /// A value quoted in a remark, cut to a length a report can show.
    static func shown(_ value: some StringProtocol) -> String {
        value.count <= 40 ? String(value) : String(value.prefix(40)) + "…"
    }

    static func title(_ raw: String, at location: String) throws(ImportProblem) -> String {
        do { return try TodoTitle.validated(raw) } catch { throw ImportProblem(location: location, message: "\(error)") }
    }

    /// `foreign`, checked against what an item may keep, with a remark
    /// naming what is kept (`names`, e.g. "depends, estimate, start").
    static func foreign(
        _ foreign: ForeignFields, names: [String], of program: String, at location: String, remarks: inout [String]
    ) throws(ImportProblem) -> ForeignFields {
        guard !foreign.isEmpty else { return foreign }
        if foreign.count > ForeignFields.maximumCount {
            throw ImportProblem(
                location: location,
                message: "\(foreign.count) properties todod does not use; it keeps at most \(ForeignFields.maximumCount) per item")
        }
        if foreign.byteCount > ForeignFields.maximumBytes {
            throw ImportProblem(
                location: location,
                message: "\(foreign.byteCount) bytes of properties todod does not use; it keeps at most \(ForeignFields.maximumBytes / 1024) KiB per item")
        }
        if let remark = keptRemark(names, of: program) { remarks.append(remark) }
        return foreign
    }

    /// The remark naming what is kept for `program`, each name once, in
    /// order; nil for none.
    static func keptRemark(_ names: [String], of program: String) -> String? {
        var distinct: [String] = []
        for name in names where !distinct.contains(name) { distinct.append(name) }
        guard !distinct.isEmpty else { return nil }
        return "kept as they came for \(program), unused by todod: \(distinct.map { shown($0) }.joined(separator: ", "))"
    }

    /// The longest text a declared field takes from a file, in characters:
    /// every edit copies an item into its undo step, as for notes.
    static let maximumValueLength = 1_000

    /// `raw` as the text of the field `name`, kept as it came (spaces are
    /// part of a value another program compares), or why it cannot be: too
    /// long, or not one line. Refused rather than kept aside, as a title
    /// that breaks the rules is: the value is the field's, not a foreign one.
    static func valueText(_ raw: String, of name: String, at location: String) throws(ImportProblem) -> String {
        guard raw.count <= maximumValueLength else {
            throw ImportProblem(
                location: location, message: "\(shown(name)) is \(raw.count) characters long; a field's text may have at most \(maximumValueLength)")
        }
        let breaksTheLine = raw.unicodeScalars.contains {
            switch $0.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
        guard !breaksTheLine else {
            throw ImportProblem(location: location, message: "\(shown(name)) has control characters or line breaks; a field's text is one line")
        }
        return raw
    }

    static func note(_ raw: String, at location: String) throws(ImportProblem) -> String {
        do { return try NoteText.validated(raw) } catch { throw ImportProblem(location: location, message: "\(error)") }
    }

    /// `raw` as a tag: characters a tag cannot hold become `_`; nil (and a
    /// remark) when nothing is left.
    static func tag(_ raw: String, remarks: inout [String]) -> String? {
        var name = String(raw.map { TagName.isAllowed($0) ? $0 : "_" })
        while name.first == "-" || name.first == "_" { name.removeFirst() }
        if name.count > TagName.maximumLength { name = String(name.prefix(TagName.maximumLength)) }
        if name.isEmpty {
            remarks.append("tag \"\(shown(raw))\" left out: no letters or digits")
            return nil
        }
        if name != raw { remarks.append("tag \"\(shown(raw))\" written as \(name)") }
        return name
    }

    /// `raw` as a project path: characters a path cannot hold become `_`,
    /// empty parts are dropped; nil (and a remark) when nothing is left.
    static func project(_ raw: String, remarks: inout [String]) -> String? {
        let parts = raw.split(separator: ".").map { String($0.map { TagName.isAllowed($0) ? $0 : "_" }) }
        var path = parts.filter { !$0.isEmpty }.joined(separator: ".")
        if path.count > ProjectPath.maximumLength { path = String(path.prefix(ProjectPath.maximumLength)) }
        while path.last == "." { path.removeLast() }
        if path.isEmpty {
            remarks.append("project \"\(shown(raw))\" left out: no letters or digits")
            return nil
        }
        if path != raw { remarks.append("project \"\(shown(raw))\" written as \(path)") }
        return path
    }

    /// Tags, each once ignoring case (the first spelling wins), at most
    /// `TodoItem.maximumTags` of them.
    static func tags(_ raw: [String], at location: String, remarks: inout [String]) throws(ImportProblem) -> [String] {
        var seen: Set<String> = []
        var tags: [String] = []
        for name in raw {
            guard let tag = tag(name, remarks: &remarks), seen.insert(NameCase.lowercased(tag)).inserted else { continue }
            tags.append(tag)
        }
        guard tags.count <= TodoItem.maximumTags else {
            throw ImportProblem(location: location, message: "\(tags.count) tags; an item holds at most \(TodoItem.maximumTags)")
        }
        return tags
    }
}
