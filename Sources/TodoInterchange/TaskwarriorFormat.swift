import CanonicalJSON
import FoundationEssentials
import TodoModel

/// Taskwarrior's JSON: reading what `task export` prints (2.6 and 3.x; a JSON
/// array, or one task per line) and writing what `task import` reads.
///
/// Taskwarrior keeps a recurring task as a template (status `recurring`)
/// and one task per occurrence (`parent` names the template). todod keeps
/// one item that comes back when done, so a template and its pending
/// occurrences become one recurring item, due when the first pending
/// occurrence is; done occurrences stay done items. An export writes a
/// recurring item as a template, and Taskwarrior makes the occurrences.
///
/// A declared field (`FieldCatalog`: `scheduled`, `until`, the UDAs
/// todod.conf declares) is its `taskwarriorName` attribute, read and written
/// by its kind: a date as `due` is (local midnight is a day), a number as a
/// JSON number (or a string of one, as Taskwarrior 2.x data without its rc
/// has it), a duration as ISO 8601 (`PT2H`; a count of seconds is read
/// too), text as a string. A value that does not fit its field is kept as
/// it came, as an attribute todod does not model is.
///
/// Links name tasks by UUID: `depends` (a JSON array, as 2.6 and 3 write
/// it, or a string separated by commas, as 2.5 and before did) and
/// `parenttask`, the attribute a subtask's `parent` is (Taskwarrior's own
/// `parent` is a repeating task's template). Which item a UUID names is
/// the import plan's to find (`ImportPlan`): until then, and for good when
/// it names no task of the file or the list, the attribute is kept as it
/// came. An export writes the UUIDs of the items linked to, with those
/// kept.
public enum TaskwarriorFormat {
    public static func read(_ text: String, timeZone: TimeZone, fields: FieldCatalog = .builtIn) throws(ImportProblem)
        -> ImportBatch
    {
        let byAttribute = attributes(of: fields)
        let tasks = try decode(text, fields: byAttribute)
        var byUUID: [String: TaskwarriorTask] = [:]
        for task in tasks { if let uuid = task.uuid?.lowercased() { byUUID[uuid] = task } }
        // The first pending occurrence of each template, by the template's uuid.
        var firstPending: [String: Date] = [:]
        var pendingCount: [String: Int] = [:]
        // Occurrences are merged into their template only while it is one
        // (a deleted template's pending occurrences are tasks of their own).
        func template(of task: TaskwarriorTask) -> String? {
            guard let parent = task.parent?.lowercased(), byUUID[parent]?.status == "recurring" else { return nil }
            return parent
        }
        for task in tasks {
            guard let parent = template(of: task),
                task.status == "pending" || task.status == "waiting",
                let due = task.due.flatMap({ InterchangeDates.utcInstant($0) })
            else { continue }
            pendingCount[parent, default: 0] += 1
            if firstPending[parent].map({ due < $0 }) ?? true { firstPending[parent] = due }
        }
        var batch = ImportBatch(fields: fields)
        var seen: Set<String> = []
        for (index, task) in tasks.enumerated() {
            let location = "task \(index + 1)"
            guard let uuid = task.uuid?.lowercased(), !uuid.isEmpty else {
                throw ImportProblem(location: location, message: "it has no uuid")
            }
            guard seen.insert(uuid).inserted else {
                throw ImportProblem(location: location, message: "uuid \(uuid) appears twice")
            }
            let title = task.description ?? ""
            let status = task.status ?? "pending"
            let isOccurrence = template(of: task) != nil
            // A pending occurrence is merged into its template's item.
            if isOccurrence && (status == "pending" || status == "waiting") { continue }
            switch status {
            case "deleted":
                batch.skipped.append(.init(source: location, title: title, reason: "deleted in Taskwarrior"))
                continue
            case "pending", "waiting", "completed", "recurring":
                break
            case let status:
                throw ImportProblem(location: location, message: "unknown status \"\(status)\"")
            }
            var item = try self.item(task, uuid: uuid, at: location, timeZone: timeZone, fields: byAttribute)
            if task.status == "recurring" {
                if let due = firstPending[uuid] { item.due = InterchangeDates.dueDate(at: due, in: timeZone) }
                if let count = pendingCount[uuid], count > 1 {
                    item.remarks.append("\(count) pending occurrences become one repeating item, due when the first is")
                }
            }
            batch.items.append(item)
        }
        return batch
    }

    /// The declared fields by their attribute, but those whose attribute is
    /// one of the item's own (`TaskwarriorTask.modelledKeys`), which is read
    /// as that.
    private static func attributes(of fields: FieldCatalog) -> [String: FieldDeclaration] {
        var byAttribute: [String: FieldDeclaration] = [:]
        for field in fields.declarations where !TaskwarriorTask.modelledKeys.contains(field.taskwarriorName) {
            if byAttribute[field.taskwarriorName] == nil { byAttribute[field.taskwarriorName] = field }
        }
        return byAttribute
    }

    /// The tasks of `text`, each with the attributes of declared fields
    /// (`TaskwarriorTask.fieldAttributes`) and those todod does not model
    /// (`TaskwarriorTask.foreign`), read from the same bytes a second time as
    /// plain JSON objects, since `Codable` passes over keys it does not know.
    private static func decode(_ text: String, fields: [String: FieldDeclaration]) throws(ImportProblem) -> [TaskwarriorTask] {
        let decoder = JSONValue.exactDecoder()
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.first == "[" {
            let data = Data(text.utf8)
            var tasks: [TaskwarriorTask]
            do { tasks = try decoder.decode([TaskwarriorTask].self, from: data) } catch {
                if case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty, let located = badLine(in: text) {
                    throw located
                }
                throw problem(error)
            }
            let objects = (try? decoder.decode([LenientJSONObject].self, from: data)) ?? []
            for (index, object) in objects.enumerated() where index < tasks.count {
                (tasks[index].fieldAttributes, tasks[index].foreign, tasks[index].unreadable) = otherAttributes(of: object, fields: fields)
            }
            return tasks
        }
        // `rc.json.array=off`: one task per line.
        var tasks: [TaskwarriorTask] = []
        for (number, line) in textLines(text).enumerated()
        where !line.allSatisfy(\.isWhitespace) {
            let data = Data(line.utf8)
            do { tasks.append(try decoder.decode(TaskwarriorTask.self, from: data)) } catch {
                throw ImportProblem(location: "line \(number + 1)", message: "not a Taskwarrior task: \(problem(error).message)")
            }
            if let object = try? decoder.decode(LenientJSONObject.self, from: data) {
                let last = tasks.count - 1
                (tasks[last].fieldAttributes, tasks[last].foreign, tasks[last].unreadable) = otherAttributes(of: object, fields: fields)
            }
        }
        return tasks
    }

    /// Where a JSON array that does not parse goes wrong, by line:
    /// JSONDecoder says only that the whole is not JSON, and `task export`
    /// writes a task a line, so each line is read alone, without the
    /// array's brackets and commas. A file cut short is said as such. Nil
    /// when no line is to blame (a file laid out otherwise).
    private static func badLine(in text: String) -> ImportProblem? {
        let decoder = JSONValue.exactDecoder()
        func parses(_ json: Substring) -> Bool { (try? decoder.decode(JSONValue.self, from: Data(json.utf8))) != nil }
        var opened = false  // the array's `[`, on the first line that is not blank
        for (number, line) in textLines(text).enumerated() {
            var body = Substring(line.trimmingWhitespace())
            if !opened, !body.isEmpty {
                opened = true
                if body.first == "[" { body = body.dropFirst() }
            }
            if body.last == "," { body = body.dropLast() }
            if body.last == "]", !parses(body) { body = body.dropLast() }
            body = Substring(body.trimmingWhitespace())
            guard !body.isEmpty else { continue }
            guard body != "{" else { return nil }  // pretty-printed: a task is many lines
            guard parses(body) else {
                return ImportProblem(location: "line \(number + 1)", message: "not valid JSON: \(ImportFields.shown(body))")
            }
        }
        let end = text.trimmingWhitespace()
        guard !end.hasSuffix("]") else { return nil }
        return ImportProblem(location: "line \(textLines(end).count)", message: "the file ends inside the JSON array (no closing ]): is it cut short?")
    }

    /// The attributes that are not the item's own: those of declared
    /// fields, as they came; those todod does not model, each value as JSON
    /// text; and those whose value it cannot hold.
    private static func otherAttributes(of object: LenientJSONObject, fields: [String: FieldDeclaration])
        -> ([String: JSONValue], [String: String], [String])
    {
        var declared: [String: JSONValue] = [:]
        var foreign: [String: String] = [:]
        for (key, value) in object.values where !TaskwarriorTask.modelledKeys.contains(key) {
            if fields[key] != nil { declared[key] = value } else { foreign[key] = value.text }
        }
        // Kept while the task may be a done occurrence (`item`), never a declared field's.
        for key in TaskwarriorTask.occurrenceKeys { if let value = object.values[key] { foreign[key] = value.text } }
        return (declared, foreign, object.unreadable.filter { !TaskwarriorTask.modelledKeys.contains($0) }.sorted())
    }

    /// A decoding error, located at the task it is in ("task 3: tags: …").
    private static func problem(_ error: any Error) -> ImportProblem {
        guard let error = error as? DecodingError else { return ImportProblem(location: "input", message: "\(error)") }
        let context: DecodingError.Context
        let what: String
        switch error {
        case .typeMismatch(let type, let found): (context, what) = (found, "expected \(name(of: type))")
        case .valueNotFound(let type, let found): (context, what) = (found, "expected \(name(of: type)), found null")
        case .keyNotFound(let key, let found): (context, what) = (found, "\(key.stringValue) is missing")
        case .dataCorrupted(let found): (context, what) = (found, "not valid JSON")
        @unknown default: return ImportProblem(location: "input", message: "\(error)")
        }
        let path = context.codingPath
        guard let index = path.first?.intValue else {
            let detail = context.underlyingError.flatMap { $0 as? any CustomDebugStringConvertible }?.debugDescription
            return ImportProblem(location: "input", message: what + (detail.map { " (\($0))" } ?? ""))
        }
        let field = path.dropFirst().map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        return ImportProblem(location: "task \(index + 1)", message: (field.isEmpty ? "" : field + ": ") + what)
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is [String].Type, is [Any].Type: "an array"
        default: "\(type)"
        }
    }

    private static func item(
        _ task: TaskwarriorTask, uuid: String, at location: String, timeZone: TimeZone, fields: [String: FieldDeclaration]
    ) throws(ImportProblem) -> ImportedItem {
        func date(_ name: String, _ text: String?) throws(ImportProblem) -> Date? {
            guard let text else { return nil }
            guard let date = InterchangeDates.utcInstant(text) else {
                throw ImportProblem(location: location, message: "\(name) \"\(text)\" is not a Taskwarrior date (20240115T093000Z)")
            }
            return date
        }
        var remarks: [String] = []
        let title = try ImportFields.title(task.description ?? "", at: location)
        let isDone = task.status == "completed"
        let created = try date("entry", task.entry)
        var notes: [TodoNote] = []
        for (number, annotation) in (task.annotations ?? []).enumerated() {
            let text = try ImportFields.note(annotation.description ?? "", at: "\(location), annotation \(number + 1)")
            notes.append(TodoNote(text: text, addedAt: try date("annotation entry", annotation.entry) ?? created ?? Date(timeIntervalSince1970: 0)))
        }
        guard notes.count <= TodoItem.maximumNotes else {
            throw ImportProblem(location: location, message: "\(notes.count) annotations; an item holds at most \(TodoItem.maximumNotes)")
        }
        var priority: Priority?
        if let letter = task.priority, !letter.isEmpty {
            priority = Priority(letter: letter.uppercased())
            if priority == nil { remarks.append("priority \"\(ImportFields.shown(letter))\" not used (todod has H, M and L)") }
        }
        var recurrence: Recurrence?
        if let text = task.recur, !text.isEmpty, task.status != "completed" || task.parent == nil {
            recurrence = TaskwarriorRecurrence.read(text)
            if recurrence == nil { remarks.append("repetition \"\(ImportFields.shown(text))\" left out: todod cannot repeat that way") }
            // todod's own text says what `recur` cannot ("from completion"),
            // while `recur` still says its period: one changed in Taskwarrior
            // (which keeps `todod_recur` as it was) is read from `recur`.
            if let own = task.todod_recur.flatMap(Recurrence.init), own.period == recurrence?.period { recurrence = own }
        }
        let tags = try ImportFields.tags(task.tags ?? [], at: location, remarks: &remarks)
        for name in task.unreadable { remarks.append("\(ImportFields.shown(name)) left out: a value todod cannot hold") }
        // A priority todod has no letter for (one of a UDA's values) is
        // kept as it came, and written back while todod has none of its own.
        var kept = task.foreign
        // A done occurrence keeps what made it one (`TaskwarriorTask.occurrenceKeys`);
        // any other task has them read, or made anew on export.
        if !isDone || recurrence != nil { for key in TaskwarriorTask.occurrenceKeys { kept[key] = nil } }
        if let letter = task.priority, !letter.isEmpty, priority == nil { kept["priority"] = JSONValue.string(letter).text }
        // A declared field's value that does not fit it is kept as it came
        // too (Taskwarrior's rc and todod.conf may disagree), and said; an
        // empty one is no value (Taskwarrior writes none), kept as it came.
        var values: [String: FieldValue] = [:]
        var links: [ImportedLink] = []
        var linkAttributes: Set<String> = []
        for (attribute, json) in task.fieldAttributes.sorted(by: { $0.key < $1.key }) {
            guard let field = fields[attribute] else { continue }
            // A link names a task by its UUID, which the import plan
            // resolves: until then (and for good, if it names no task) the
            // attribute is kept as it came.
            if field.kind == .item || field.kind == .items, let uuids = try self.uuids(json, of: field, at: location) {
                kept[attribute] = json.text
                guard !uuids.isEmpty else { continue }
                linkAttributes.insert(attribute)
                links += uuids.map { uuid in
                    ImportedLink(
                        field: field.name, target: .identity(ExternalIdentity.normalized(uuid)), value: uuid, property: attribute,
                        source: .taskwarrior(attribute: attribute))
                }
                continue
            }
            if let value = try self.value(json, of: field, at: location, timeZone: timeZone) {
                values[field.name] = value
                continue
            }
            kept[attribute] = json.text
            if json != .string("") {
                let shown = if case .string(let text) = json { text } else { json.text }
                let what = "\(ImportFields.shown(attribute)) \"\(ImportFields.shown(shown))\""
                remarks.append(FieldValueText.notUsed(what, field, date: "a Taskwarrior date (20240115T093000Z)"))
            }
        }
        // Links are not named as kept while the import plan may resolve them (`ImportPlan`).
        let keptNames = ImportedItem.KeptNames(program: "Taskwarrior", names: kept.keys.sorted(), linkOnly: linkAttributes)
        let foreign = try ImportFields.foreign(
            ForeignFields(taskwarrior: kept), names: keptNames.names.filter { !linkAttributes.contains($0) }, of: "Taskwarrior",
            at: location, remarks: &remarks)
        let project = task.project.flatMap { $0.isEmpty ? nil : ImportFields.project($0, remarks: &remarks) }
        var item = ImportedItem(
            identity: .external(uuid), source: location, title: title, isDone: isDone, createdAt: created,
            updatedAt: try date("modified", task.modified), completedAt: isDone ? try date("end", task.end) : nil,
            due: try date("due", task.due).map { InterchangeDates.dueDate(at: $0, in: timeZone) },
            wait: try date("wait", task.wait).map { InterchangeDates.dueDate(at: $0, in: timeZone) },
            tags: tags, project: project, priority: priority, notes: notes, recurrence: recurrence, values: values,
            remarks: remarks, foreign: foreign, links: links)
        if !links.isEmpty { item.keptNames = keptNames }
        return item
    }

    /// The UUIDs a link attribute names: `depends` as Taskwarrior 2.6 and
    /// 3 export it (a JSON array of strings) or as 2.5 and before did (one
    /// string, separated by commas); `parenttask`, one string. Empty when
    /// it names none; nil when it is not of that form (kept as it came, and
    /// said). More than an item links to (`FieldKind.maximumLinks`) refuses
    /// the file, as too many tags or annotations do.
    private static func uuids(_ json: JSONValue, of field: FieldDeclaration, at location: String) throws(ImportProblem) -> [String]? {
        var uuids: [String]
        switch json {
        case .string(let text) where field.kind == .items:
            uuids = text.split(separator: ",").map { String($0).trimmingWhitespace() }
        case .string(let text):
            uuids = [text.trimmingWhitespace()]
        case .array(let elements) where field.kind == .items:
            uuids = []
            for element in elements {
                guard case .string(let text) = element else { return nil }
                uuids.append(text.trimmingWhitespace())
            }
        default:
            return nil
        }
        uuids.removeAll { $0.isEmpty }
        guard uuids.count <= FieldKind.maximumLinks else {
            throw ImportProblem(
                location: location,
                message: "\(ImportFields.shown(field.taskwarriorName)) names \(uuids.count) tasks; an item links to at most \(FieldKind.maximumLinks)")
        }
        return uuids
    }

    /// The value of `field` in `json`, as Taskwarrior writes one of its
    /// kind; nil when it is not one (or is past what todod holds: a whole
    /// number a double cannot hold exactly would go back changed).
    private static func value(_ json: JSONValue, of field: FieldDeclaration, at location: String, timeZone: TimeZone)
        throws(ImportProblem) -> FieldValue?
    {
        switch (field.kind, json) {
        case (.date, .string(let text)):
            return InterchangeDates.utcInstant(text).map { .date(InterchangeDates.dueDate(at: $0, in: timeZone)) }
        case (.number, .integer(let whole)):
            let number = Double(whole)
            return Int64(exactly: number) == whole ? .number(number) : nil
        case (.number, .decimal), (.number, .double):
            return NumberText.number(json.text).map(FieldValue.number)
        case (.number, .string(let text)):
            return NumberText.number(text).map(FieldValue.number)
        case (.duration, .string(let text)):
            return FieldValueText.duration(text).map(FieldValue.duration)
        case (.duration, .integer(let seconds)):
            return (0...Int64(DurationText.maximumSeconds)).contains(seconds) ? .duration(Int(seconds)) : nil
        case (.text, .string(let text)) where !text.isEmpty && FieldValueText.allows(text, in: field):
            return .text(try ImportFields.valueText(text, of: field.taskwarriorName, at: location))
        default:
            return nil
        }
    }

    /// A value as Taskwarrior writes one of its kind: a date as `due` is,
    /// a whole number without a fraction, a duration in ISO 8601, links as
    /// the UUIDs of the tasks they name (`depends` a list, as 2.6 writes
    /// it; `parenttask` one).
    private static func json(of value: FieldValue, field: FieldDeclaration?, timeZone: TimeZone, links: LinkNames) -> JSONValue {
        switch value {
        case .text(let text): .string(text)
        case .number(let number) where number == number.rounded() && abs(number) < 1e15: .integer(Int64(number))
        case .number(let number): .double(number)
        case .date(let date): .string(InterchangeDates.compactUTC(InterchangeDates.instant(of: date, in: timeZone)))
        case .duration(let seconds): .string(DurationText.iso8601(seconds: seconds))
        case .items(let ids) where field?.kind == .item && ids.count == 1: .string(links.uuid(of: ids[0]))
        case .items(let ids): .array(ids.map { .string(links.uuid(of: $0)) })
        }
    }

    /// The UUIDs of `json` (a link attribute kept as it came: a list, or a
    /// string separated by commas); none when it is of another form.
    static func keptUUIDs(_ json: JSONValue?) -> [String] {
        switch json {
        case .string(let text)?: text.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
        case .array(let elements)?:
            elements.compactMap { if case .string(let text) = $0, !text.trimmingWhitespace().isEmpty { text.trimmingWhitespace() } else { nil } }
        default: []
        }
    }

    /// `item` as a Taskwarrior task (one line of JSON). A done item is
    /// written without its repetition: its next occurrence is an item of its
    /// own. A value whose field is no longer declared (an orphan) is written
    /// under its own name, as its kind is written, as Taskwarrior writes a
    /// UDA it no longer has a type for: as it came.
    static func entry(
        _ item: TodoItem, listID: String, timeZone: TimeZone, fields: FieldCatalog = .builtIn, links: LinkNames? = nil
    ) -> String {
        let links = links ?? LinkNames(listID: listID)
        let recurrence = item.isDone ? nil : item.recurrence
        var task = TaskwarriorTask(
            uuid: ExternalIdentity.uuid(of: item, listID: listID), description: item.title,
            status: item.isDone ? "completed" : recurrence != nil ? "recurring" : "pending",
            entry: InterchangeDates.compactUTC(item.createdAt), modified: InterchangeDates.compactUTC(item.updatedAt))
        task.end = item.completedAt.map(InterchangeDates.compactUTC)
        task.due = item.due.map { InterchangeDates.compactUTC(InterchangeDates.instant(of: $0, in: timeZone)) }
        task.wait = item.wait.map { InterchangeDates.compactUTC(InterchangeDates.instant(of: $0, in: timeZone)) }
        task.tags = item.tags.isEmpty ? nil : item.sortedTags
        task.project = item.project
        task.priority = item.priority?.letter
        task.annotations =
            item.notes.isEmpty
            ? nil : item.notes.map { .init(entry: InterchangeDates.compactUTC($0.addedAt), description: $0.text) }
        if let recurrence {
            task.recur = TaskwarriorRecurrence.text(of: recurrence)
            task.rtype = "periodic"
            task.mask = ""
            if !TaskwarriorRecurrence.isExact(recurrence) { task.todod_recur = recurrence.text }
        }
        for (name, field, value) in fields.ordered(item.values) {
            let attribute = field?.taskwarriorName ?? name
            var json = json(of: value, field: field, timeZone: timeZone, links: links)
            // Links to tasks todod did not find, kept as they came, go
            // with those it did (a `parenttask` set here replaces a kept one).
            if case .array(var uuids) = json, let kept = item.foreign.taskwarrior[attribute] {
                for uuid in keptUUIDs(JSONValue(text: kept)) where !uuids.contains(.string(uuid)) { uuids.append(.string(uuid)) }
                json = .array(uuids)
            }
            task.fieldAttributes[attribute] = json
        }
        // What Taskwarrior wrote and todod does not model goes back as it came;
        // what made a done task an occurrence, while it is done.
        task.foreign = item.foreign.taskwarrior
        if !item.isDone { for key in TaskwarriorTask.occurrenceKeys { task.foreign[key] = nil } }
        return String(decoding: (try? encoder.encode(task)) ?? Data(), as: UTF8.self)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
