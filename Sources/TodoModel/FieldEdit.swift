import FoundationEssentials

/// One change to an item's fields besides its title and status, with every
/// value resolved: dates are dates, recurrences are recurrences.
///
/// `ShorthandChange` is what was typed; `resolved(with:)` turns it into this,
/// against the daemon's clock, so that the collection's commands stay pure
/// functions of their input.
public enum FieldEdit: Hashable, Sendable {
    case addTag(String)
    case removeTag(String)
    case project(String?)
    case priority(Priority?)
    case due(DueDate?)
    case wait(DueDate?)
    case recurrence(Recurrence?)
    /// A declared field's value, by the field's name; nil clears it.
    case value(name: String, FieldValue?)
    /// Ids added to and taken from a link field (`depends:3,-5`), keeping
    /// the links already there, as Taskwarrior's `depends:` does.
    case links(name: String, add: [TodoID], remove: [TodoID])

    /// The field this edit changes.
    public var field: ItemField {
        switch self {
        case .addTag, .removeTag: .tags
        case .project: .project
        case .priority: .priority
        case .due: .due
        case .wait: .wait
        case .recurrence: .recurrence
        case .value(let name, _), .links(let name, _, _): ItemField(rawValue: name)
        }
    }
}

extension ShorthandChange {
    /// This change with its dates read by `dates` and its recurrence parsed.
    public func resolved(with dates: NaturalDateParser) throws(TodoError) -> FieldEdit {
        switch self {
        case .addTag(let tag): return .addTag(tag)
        case .removeTag(let tag): return .removeTag(tag)
        case .setProject(let project): return .project(project)
        case .setPriority(let priority): return .priority(priority)
        case .setDue(let text):
            guard let text else { return .due(nil) }
            do { return .due(try dates.parse(text)) } catch { throw .invalidDate(field: .due, text: text, error) }
        case .setWait(let text):
            guard let text else { return .wait(nil) }
            do { return .wait(try dates.parse(text)) } catch { throw .invalidDate(field: .wait, text: text, error) }
        case .setRecurrence(let text):
            guard let text else { return .recurrence(nil) }
            do { return .recurrence(try Recurrence(parsing: text)) } catch { throw .invalidRecurrence(error) }
        case .setValue(let field, let text):
            guard let text else { return .value(name: field.name, nil) }
            if field.kind == .items {
                guard let (add, remove) = FieldKind.linkChange(text) else {
                    throw .invalidShorthand(ShorthandError(position: 0, reason: .invalidValue(field.name, FieldKind.linkChangeError(text))))
                }
                return .links(name: field.name, add: add, remove: remove)
            }
            if field.kind == .date {
                do { return .value(name: field.name, .date(try dates.parse(text))) } catch {
                    throw .invalidDate(field: field.itemField, text: text, error)
                }
            }
            do { return .value(name: field.name, try field.value(of: text, dates: dates)) } catch {
                throw .invalidShorthand(ShorthandError(position: 0, reason: .invalidValue(field.name, error)))
            }
        }
    }
}

extension TodoItem {
    /// Applies `edits` in order at `now`; returns the fields that changed.
    ///
    /// Tags are matched ignoring case: adding `Home` to an item tagged `home`
    /// changes nothing, removing `HOME` removes it. A recurrence is anchored
    /// to the due date whenever either changes (see `Recurrence.anchored`).
    @discardableResult
    public mutating func apply(_ edits: [FieldEdit], at now: Date, in timeZone: TimeZone) -> Set<ItemField> {
        var changed: Set<ItemField> = []
        for edit in edits {
            let before = self
            switch edit {
            case .addTag(let tag): if existingTag(tag) == nil { tags.insert(tag) }
            case .removeTag(let tag): if let existing = existingTag(tag) { tags.remove(existing) }
            case .project(let project): self.project = project
            case .priority(let priority): self.priority = priority
            case .due(let due): self.due = due
            case .wait(let wait): self.wait = wait
            case .recurrence(let recurrence): self.recurrence = recurrence
            case .value(let name, let value): values[name] = value
            case .links(let name, let add, let remove):
                let removed = Set(remove)
                let kept = FieldValue.uniqueIDs((values[name]?.linkedIDs ?? []).filter { !removed.contains($0) } + add)
                values[name] = kept.isEmpty ? nil : .items(kept)
            }
            if self != before { changed.insert(edit.field) }
        }
        if let recurrence, let due, changed.contains(.due) || changed.contains(.recurrence) {
            self.recurrence = recurrence.anchored(to: due, in: timeZone)
        }
        for field in changed { fieldChangedAt[field] = now }
        if !changed.isEmpty { updatedAt = now }
        return changed
    }
}
