import CanonicalJSON
import TodoModel

/// Which item each link of an import names (`ImportPlan`), and what stays
/// as it came: see `ImportedLink` and `ImportPlan`'s comment.
struct LinkResolver {
    /// The file's items by their identity, with the ids they get.
    private var byIdentity: [String: TodoID] = [:]
    /// The ids the file's items get, in its order.
    private let ids: [TodoID]
    /// The list's items by the identity they were imported with.
    private let byExternalID: [String: TodoID]
    private let collection: TodoCollection
    private let listID: String

    init(batch: ImportBatch, ids: [TodoID], byExternalID: [String: TodoID], collection: TodoCollection, listID: String) {
        self.ids = ids
        self.byExternalID = byExternalID
        self.collection = collection
        self.listID = listID
        // Only when some item links: most files have no links.
        guard batch.items.contains(where: { !$0.links.isEmpty }) else { return }
        for (index, item) in batch.items.enumerated() {
            guard case .external(let raw) = item.identity else { continue }
            let identity = ExternalIdentity.normalized(raw)
            if byIdentity[identity] == nil { byIdentity[identity] = ids[index] }
        }
    }

    /// Why a link names no item.
    private enum Unresolved: Hashable {
        case missing, itself, secondParent

        var reason: String {
            switch self {
            case .missing: "no item of the file or the list has it"
            case .itself: "it names the item itself"
            case .secondParent: "an item has one parent"
            }
        }
    }

    /// The item `target` names, if any.
    private func item(_ target: ImportedLink.Target) -> TodoID? {
        switch target {
        case .batchItem(let index): return ids.indices.contains(index) ? ids[index] : nil
        case .identity(let identity):
            if let id = byIdentity[identity] { return id }
            if let explicit = byExternalID[identity] { return explicit }
            if let derived = ExternalIdentity.itemID(derivedFrom: identity, listID: listID), collection[derived]?.externalID == nil {
                return derived
            }
            return nil
        }
    }

    /// `imported` (the item `id`) with its links in `values`, and what
    /// they were read from no longer kept aside; the links that name no
    /// item stay there, as they came, and are said in its remarks.
    func resolve(_ imported: inout ImportedItem, id: TodoID, format: InterchangeFormat, fields: FieldCatalog) {
        var resolved: [String: [TodoID]] = [:]
        var unresolved: [(link: ImportedLink, why: Unresolved)] = []
        for link in imported.links {
            guard let field = fields[link.field], field.name == link.field, field.kind == .item || field.kind == .items else {
                continue
            }
            guard let target = item(link.target) else {
                unresolved.append((link, .missing))
                continue
            }
            if target == id {
                unresolved.append((link, .itself))
            } else if field.kind == .item, let first = resolved[field.name]?.first, first != target {
                unresolved.append((link, .secondParent))
            } else {
                resolved[field.name, default: []].append(target)
            }
        }
        for (name, targets) in resolved {
            // The same links in another order are the item's (a todo.txt
            // file cannot say their order: the links are on their targets).
            let unique = FieldValue.uniqueIDs(targets)
            let existing = collection[id]?.values[name]?.linkedIDs ?? []
            imported.values[name] = .items(Set(existing) == Set(unique) && existing.count == unique.count ? existing : unique)
        }
        keepOnly(unresolved.map(\.link), of: imported.links, in: &imported.foreign)
        // What stays is named with what else is kept for the program, as it would have been without links.
        let staying = Set(unresolved.map(\.link.property))
        if let kept = imported.keptNames, !staying.isDisjoint(with: kept.linkOnly),
            let remark = ImportFields.keptRemark(kept.names.filter { !kept.linkOnly.contains($0) || staying.contains($0) }, of: kept.program)
        {
            let without = ImportFields.keptRemark(kept.names.filter { !kept.linkOnly.contains($0) }, of: kept.program)
            if let without, let index = imported.remarks.firstIndex(of: without) {
                imported.remarks[index] = remark
            } else {
                imported.remarks.append(remark)
            }
        }
        // Said once for each attribute or property and reason, naming the values.
        var said: [(property: String, why: Unresolved, values: [String])] = []
        for (link, why) in unresolved {
            if let index = said.firstIndex(where: { $0.property == link.property && $0.why == why }) {
                if !said[index].values.contains(link.value) { said[index].values.append(link.value) }
            } else {
                said.append((link.property, why, [link.value]))
            }
        }
        // As the other things kept for each program are said (`ImportFields.foreign`).
        let program = format == .taskwarrior ? "Taskwarrior" : "calendars"
        for (property, why, values) in said where format != .todotxt {
            var shown = values.prefix(3).map { ImportFields.shown($0) }.joined(separator: ", ")
            if values.count > 3 { shown += " and \(values.count - 3) more" }
            imported.remarks.append(
                "\(ImportFields.shown(property)) \(shown) kept as \(values.count == 1 ? "it" : "they") came for \(program): \(why.reason)")
        }
    }

    /// `foreign` keeping, of what `links` were read from, only what
    /// `unresolved` were: a Taskwarrior attribute whose links all stay is
    /// kept as it came, one whose links all resolved is dropped, and one
    /// with some of each keeps those, in its form (a list, or a string
    /// separated by commas); a calendar's line is dropped once its link
    /// resolved.
    private func keepOnly(_ unresolved: [ImportedLink], of links: [ImportedLink], in foreign: inout ForeignFields) {
        var attributes: [String] = []
        for link in links {
            if case .taskwarrior(let attribute) = link.source, !attributes.contains(attribute) { attributes.append(attribute) }
        }
        for attribute in attributes {
            func from(_ link: ImportedLink) -> Bool { link.source == .taskwarrior(attribute: attribute) }
            let staying = unresolved.filter(from).map(\.value)
            if staying.count == links.count(where: from) { continue }
            guard !staying.isEmpty else {
                foreign.taskwarrior[attribute] = nil
                continue
            }
            let asList = foreign.taskwarrior[attribute].map { $0.hasPrefix("[") } ?? true
            foreign.taskwarrior[attribute] = (asList ? JSONValue.array(staying.map(JSONValue.string)) : .string(staying.joined(separator: ","))).text
        }
        let staying = Set(unresolved.compactMap { if case .icalendar(let line) = $0.source { line } else { nil } })
        let resolvedLines = Set(links.compactMap { if case .icalendar(let line) = $0.source, !staying.contains(line) { line } else { nil } })
        if !resolvedLines.isEmpty { foreign.icalendar.removeAll { resolvedLines.contains($0) } }
    }
}
