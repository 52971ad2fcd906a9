import TodoModel

/// Links in iCalendar: `RELATED-TO` by the other to-do's `UID`.
extension ICalendarFormat {
    /// The links `RELATED-TO` makes, by the UID of the to-do it names:
    /// `RELTYPE=PARENT` (or no `RELTYPE`, RFC 5545 §3.2.15) is `parent`,
    /// `RELTYPE=DEPENDS-ON` (RFC 9253) is `depends`. Another relation
    /// (`CHILD`, `SIBLING`, `FINISHTOSTART`, …) is no link todod has: its
    /// line is kept as it came, as any other property todod does not read.
    /// More links of one field than an item holds (`FieldKind.maximumLinks`)
    /// refuses the file.
    static func links(_ lines: [ContentLine], fields: FieldCatalog, at location: String) throws(ImportProblem) -> [ImportedLink] {
        var links: [ImportedLink] = []
        var counts: [String: Int] = [:]
        for line in lines where line.name == "RELATED-TO" {
            let relation = line.parameters["RELTYPE"]?.trimmingWhitespace().uppercased() ?? "PARENT"
            let declaration: FieldDeclaration
            switch relation {
            case "PARENT": declaration = .parent
            case "DEPENDS-ON": declaration = .depends
            default: continue
            }
            guard let field = fields[declaration.name], field.kind == declaration.kind else { continue }
            let uid = ContentLine.unescaped(line.value).trimmingWhitespace()
            guard !uid.isEmpty else { continue }
            counts[field.name, default: 0] += 1
            guard counts[field.name]! <= FieldKind.maximumLinks else {
                throw ImportProblem(
                    location: location,
                    message: "more than \(FieldKind.maximumLinks) RELATED-TO;RELTYPE=\(relation); an item links to at most \(FieldKind.maximumLinks)")
            }
            links.append(
                ImportedLink(
                    field: field.name, target: .identity(ExternalIdentity.normalized(uid)), value: uid, property: "RELATED-TO",
                    source: .icalendar(line: line.text)))
        }
        return links
    }

    /// `item`'s links as `RELATED-TO` lines, each naming its target by the
    /// UID an export gives it: `RELTYPE=PARENT` for `parent`,
    /// `RELTYPE=DEPENDS-ON` for each of `depends`.
    static func linkLines(of item: TodoItem, fields: FieldCatalog, links: LinkNames) -> [String] {
        var lines: [String] = []
        for (name, relation) in [(FieldDeclaration.parent.name, "PARENT"), (FieldDeclaration.depends.name, "DEPENDS-ON")] {
            guard fields[name]?.name == name, case .items(let ids)? = item.values[name] else { continue }
            for id in ids { lines.append("RELATED-TO;RELTYPE=\(relation):" + ContentLine.escaped(links.identity(of: id))) }
        }
        return lines
    }
}
