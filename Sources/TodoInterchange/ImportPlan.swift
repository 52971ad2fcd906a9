import FoundationEssentials
import TodoModel

/// What importing a batch into the list would do, item by item, and the
/// one undo step that does it: all or nothing, undone in one go.
///
/// An imported item is matched with the list by its identity: an item this
/// list made (the identity its export derived), an item imported before
/// with the same Taskwarrior UUID or iCalendar UID, or, for todo.txt, an
/// item whose line would be the same (`TodoTxtFormat.identity`). A match is
/// updated — the fields the format carries are set, the others kept — and
/// anything else is added with the next free id.
///
/// Links (`depends`, `parent`) name other items as the format names them
/// (`ImportedLink`): a Taskwarrior UUID or calendar UID names the file's
/// item of that identity, else the list's (an item imported with it, or
/// one of this list's own, by the identity its export derived); todo.txt
/// links name lines of the file. A link that names no item, or the item
/// itself, or a second parent, stays what the format keeps aside
/// (`ForeignFields`), as it came, and is said in the entry's remarks; a
/// cycle the file makes is kept (the list's views and walks stop where
/// they would go round).
public struct ImportPlan: Hashable, Sendable {
    public enum Action: String, Sendable, Codable {
        case add, update, unchanged, skip
    }

    /// One item of the file, and what the import does with it.
    public struct Entry: Hashable, Sendable {
        public var action: Action
        /// The item's id in the list (nil for a skipped one).
        public var id: TodoID?
        public var title: String
        /// Where it is in the file: "line 3", "task 12".
        public var source: String
        /// What could not be carried over, or why it is skipped.
        public var remarks: [String]
    }

    public var entries: [Entry]
    /// The step, nil when the import changes nothing.
    public var step: UndoStep?

    public func count(_ action: Action) -> Int { entries.count { $0.action == action } }

    public init(
        _ batch: ImportBatch, format: InterchangeFormat, into collection: TodoCollection, listID: String, at now: Date,
        timeZone: TimeZone
    ) {
        var byExternalID: [String: TodoID] = [:]
        var byLine: [String: TodoID] = [:]
        if format == .todotxt {
            var occurrences: [String: Int] = [:]
            for item in collection.items.sorted(by: { $0.id < $1.id }) {
                let identity = TodoTxtFormat.identity(of: item)
                occurrences[identity, default: 0] += 1
                byLine[TodoTxtFormat.numbered(identity, occurrences[identity]!)] = item.id
            }
        } else {
            collection.forEachItem { item in
                if let external = item.externalID { byExternalID[ExternalIdentity.normalized(external)] = item.id }
            }
        }
        // First which item each entry is (an item of the list it updates,
        // or a new id), so that links can name items the file adds; then
        // the items, with their links resolved.
        var nextID = collection.nextID
        var matched: Set<TodoID> = []
        var places: [(id: TodoID, isUpdate: Bool, externalID: String?)] = []
        for imported in batch.items {
            var existingID: TodoID?
            var externalID: String?
            var spelling: String?
            switch imported.identity {
            case .external(let raw):
                // An item of this list (by the identity its export derived)
                // while it exists; else an item imported before with this
                // identity; else a new item that keeps it, so that importing
                // the file again finds it (also when the item it was derived
                // from has been deleted here).
                let identity = ExternalIdentity.normalized(raw)
                // An item that carries the identity itself comes first: the
                // item it was derived from may have been given another (a
                // sync gives a completed occurrence a new one, and its next
                // occurrence the one the server knows).
                // The identity is kept as the other program spelled it (an
                // iPhone's UID in capitals): a calendar server keys its
                // resources by it, and a sync that wrote it back in lower
                // case would make the phone's to-do a new one.
                if let explicit = byExternalID[identity] {
                    existingID = explicit
                    spelling = raw
                } else if let derived = ExternalIdentity.itemID(derivedFrom: identity, listID: listID),
                    collection[derived].map({ $0.externalID == nil }) == true
                {
                    existingID = derived
                } else {
                    externalID = raw
                }
            case .line(let identity):
                existingID = byLine[identity]
            }
            // Each item of the list is updated by one entry at most; a second is added.
            if let id = existingID, collection[id] != nil, matched.insert(id).inserted {
                places.append((id, true, spelling))
            } else {
                places.append((nextID, false, externalID))
                nextID = TodoID(nextID.rawValue + 1)
            }
        }
        let links = LinkResolver(batch: batch, ids: places.map(\.id), byExternalID: byExternalID, collection: collection, listID: listID)
        var changes: [ItemChange] = []
        var entries: [Entry] = []
        for (index, var imported) in batch.items.enumerated() {
            let place = places[index]
            if !imported.links.isEmpty { links.resolve(&imported, id: place.id, format: format, fields: batch.fields) }
            if place.isUpdate, let before = collection[place.id] {
                var after = Self.updated(before, with: imported, format: format, fields: batch.fields, at: now, timeZone: timeZone)
                // An identity stored before spellings were kept (in lower
                // case) takes the spelling a calendar gave it. Not a
                // Taskwarrior UUID's: Taskwarrior writes every UUID in lower case.
                if format == .ical, let spelled = place.externalID, after.externalID != nil, after.externalID != spelled {
                    after.externalID = spelled
                }
                let changed = after != before
                if changed { changes.append(ItemChange(before: before, after: after)) }
                entries.append(
                    Entry(action: changed ? .update : .unchanged, id: place.id, title: after.title, source: imported.source, remarks: imported.remarks))
            } else {
                let item = Self.added(imported, id: place.id, externalID: place.externalID, at: now, timeZone: timeZone)
                changes.append(ItemChange(before: nil, after: item))
                entries.append(Entry(action: .add, id: item.id, title: item.title, source: imported.source, remarks: imported.remarks))
            }
        }
        for skipped in batch.skipped {
            entries.append(Entry(action: .skip, id: nil, title: skipped.title, source: skipped.source, remarks: [skipped.reason]))
        }
        self.entries = entries
        let added = entries.count { $0.action == .add }
        let updated = entries.count { $0.action == .update }
        var parts: [String] = []
        if added > 0 { parts.append("add \(added) \(added == 1 ? "item" : "items")") }
        if updated > 0 { parts.append("update \(updated) \(updated == 1 ? "item" : "items")") }
        step = changes.isEmpty ? nil : UndoStep(description: "import from \(format.displayName): " + parts.joined(separator: ", "), changes: changes)
    }

    /// A new item from `imported`. With no dates in the file it is created
    /// `now`; a done one with no completion date was done when last changed.
    static func added(_ imported: ImportedItem, id: TodoID, externalID: String?, at now: Date, timeZone: TimeZone) -> TodoItem {
        let created = imported.createdAt ?? now
        let updated = max(imported.updatedAt ?? created, created)
        var item = TodoItem(
            id: id, title: imported.title, isDone: imported.isDone, createdAt: created, updatedAt: updated,
            completedAt: imported.isDone ? imported.completedAt ?? updated : nil, due: imported.due,
            tags: Set(imported.tags), project: imported.project, priority: imported.priority, notes: imported.notes,
            wait: imported.wait, values: imported.values, externalID: externalID, foreign: imported.foreign)
        item.recurrence = recurrence(of: imported, due: &item.due, at: now, timeZone: timeZone)
        return item
    }

    /// `before` with the fields `format` carries and the declared `fields`
    /// set from `imported`; the others, its id, creation and identity are
    /// kept. Each field that changes is marked changed at the file's
    /// modification date, or `now`.
    static func updated(
        _ before: TodoItem, with imported: ImportedItem, format: InterchangeFormat, fields: FieldCatalog = .builtIn, at now: Date,
        timeZone: TimeZone
    ) -> TodoItem {
        var after = before
        let carried = format.carriedFields
        let changedAt = imported.updatedAt ?? now
        func set<Value: Equatable>(_ field: ItemField, _ path: WritableKeyPath<TodoItem, Value>, _ value: Value) {
            guard carried.contains(field), after[keyPath: path] != value else { return }
            after[keyPath: path] = value
            after.fieldChangedAt[field] = changedAt
        }
        set(.title, \.title, imported.title)
        if carried.contains(.done), imported.isDone != before.isDone {
            after.isDone = imported.isDone
            after.completedAt = imported.isDone ? imported.completedAt ?? changedAt : nil
            after.fieldChangedAt[.done] = changedAt
        }
        // A format that holds days only (todo.txt) does not move a due time to
        // the start of its day; a repeating item the file gives no due date
        // keeps the one it has rather than becoming due today.
        var due = Self.keepingTime(of: before.due, in: imported.due, format: format, timeZone: timeZone)
        if due == nil, imported.recurrence != nil { due = before.due }
        let recurrence = recurrence(of: imported, due: &due, at: now, timeZone: timeZone)
        set(.due, \.due, due)
        set(.wait, \.wait, Self.keepingTime(of: before.wait, in: imported.wait, format: format, timeZone: timeZone))
        set(.project, \.project, imported.project)
        set(.priority, \.priority, imported.priority)
        set(.recurrence, \.recurrence, recurrence)
        if carried.contains(.tags), Set(imported.tags.map(NameCase.lowercased)) != Set(before.tags.map(NameCase.lowercased)) {
            after.tags = Set(imported.tags)
            after.fieldChangedAt[.tags] = changedAt
        }
        after.values = Self.values(of: before, with: imported, format: format, fields: fields, timeZone: timeZone)
        for name in Set(before.values.keys).union(after.values.keys) where before.values[name] != after.values[name] {
            after.fieldChangedAt[ItemField(rawValue: name)] = changedAt
        }
        // What the file keeps that todod does not model is the file's to
        // say; what another format keeps stays.
        switch format {
        case .taskwarrior: after.foreign.taskwarrior = imported.foreign.taskwarrior
        case .ical: after.foreign.icalendar = imported.foreign.icalendar
        case .todotxt: break
        }
        // Formats write times in whole seconds: notes whose times differ by
        // less than that are the same notes.
        if !Self.sameNotes(imported.notes, before.notes) { set(.notes, \.notes, imported.notes) }
        if after != before { after.updatedAt = max(changedAt, before.updatedAt) }
        return after
    }

    /// The declared fields' values after an update: each field's from the
    /// file, or none when the file has none, as for the item's own fields.
    ///
    /// A value whose field is gone (an orphan) went out under its own name,
    /// and a Taskwarrior or iCalendar file brings it back among what that
    /// program keeps (`ForeignFields`), which now holds the file's copy: the
    /// value gives way to it. A todo.txt line keeps nothing aside, so there
    /// an orphan stays, as do a text with a space, which a line cannot say,
    /// and a time a line says as its day only.
    static func values(
        of before: TodoItem, with imported: ImportedItem, format: InterchangeFormat, fields: FieldCatalog, timeZone: TimeZone
    ) -> [String: FieldValue] {
        var values = before.values
        if format != .todotxt {
            for name in before.values.keys where fields[name]?.name != name { values[name] = nil }
        }
        for field in fields.declarations {
            var value = imported.values[field.name]
            if format == .todotxt, let existing = before.values[field.name] {
                if value == nil, !TodoTxtFormat.canSay(existing) { value = existing }
                if case .date(let day)? = value, case .date(let moment) = existing {
                    value = Self.keepingTime(of: moment, in: day, format: format, timeZone: timeZone).map(FieldValue.date)
                }
            }
            values[field.name] = value
        }
        return values
    }

    /// `imported`, or `existing` when `format` holds days only and the
    /// imported day is the day of the existing moment.
    static func keepingTime(of existing: DueDate?, in imported: DueDate?, format: InterchangeFormat, timeZone: TimeZone) -> DueDate? {
        guard format == .todotxt, case .moment(let moment)? = existing, case .day(let day)? = imported,
            CalendarDay(moment, in: timeZone) == day
        else { return imported }
        return existing
    }

    static func sameNotes(_ a: [TodoNote], _ b: [TodoNote]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy {
                $0.text == $1.text && $0.addedAt.timeIntervalSince1970.rounded(.down) == $1.addedAt.timeIntervalSince1970.rounded(.down)
            }
    }

    /// The imported repetition, anchored to the due date as todod's own
    /// edits anchor it (keeping a month-end anchor the file named, such as
    /// `BYMONTHDAY=-1`); a repeating item with no due date is due the day
    /// its wait ends, or today.
    private static func recurrence(of imported: ImportedItem, due: inout DueDate?, at now: Date, timeZone: TimeZone) -> Recurrence? {
        guard let recurrence = imported.recurrence else { return nil }
        if due == nil { due = Recurrence.startingDue(wait: imported.wait, today: CalendarDay(now, in: timeZone), in: timeZone) }
        return recurrence.anchored(keepingAnchorThatFits: due!, in: timeZone)
    }
}
