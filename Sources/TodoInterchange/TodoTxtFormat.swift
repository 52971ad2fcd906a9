import FoundationEssentials
import TodoModel

/// todo.txt (github.com/todotxt/todo.txt): one task per line.
///
/// `x 2024-01-16 2024-01-10 (A) call Mom +family @phone due:2024-01-20`:
/// `x` and the completion date, a priority `(A)`–`(Z)` (A, B, C are todod's
/// H, M, L; a lower one is kept as a tag `pri-D`), the creation date, then
/// the text. The first `+project` is the project, each `@context` a tag.
/// Of the `key:value` add-ons, `due:` (due date), `rec:` (repetition:
/// `rec:+1w` counts from the due date, `rec:1w` from completion, `b` is
/// weekdays), `pri:` (the priority of a done task) and todod's own `wait:`
/// are read, and each declared field by its `todoTxtKey`: `t:` (todo.txt's
/// threshold) is `scheduled`, `until:2024-01-31`, `estimate:3.5`,
/// `effort:PT2H`, `size:M`. Any other stays in the title, as do further
/// projects, and so does a value that does not fit its field (said).
///
/// Lines have no ids, so a line is known again by its identity
/// (`identity(of:)`): its words, projects and contexts, not its dates,
/// priority or done mark, which are what a re-import should update.
///
/// Links. todo.txt has no standard for them; todod follows topydo's (and
/// its author's `dep` add-on for todo.sh), the todo.txt tool that has them:
/// a line that depends on others carries a label `id:N`, and each line it
/// depends on carries `p:N` (topydo's `dep add 1 to 2`: 1 depends on 2, 2
/// gets `p:` naming 1's `id:`), once for each line that depends on it. A
/// subtask, which topydo has no separate key for, carries `parent:N` naming
/// its parent's `id:N` (the `parent` field's key). Labels belong to the
/// file: an export writes each item's id, and an import links lines by
/// them, not to items of the list. A `p:` or `parent:` that names no line
/// (or its own line; or a second parent) is kept in the title, as other
/// add-ons todod does not read are, and said; a label no line names is
/// dropped. None of these words is part of a line's identity. A line with
/// no link writes none of them.
public enum TodoTxtFormat {
    public static func read(_ text: String, timeZone: TimeZone, fields: FieldCatalog = .builtIn) throws(ImportProblem)
        -> ImportBatch
    {
        var batch = ImportBatch(fields: fields)
        let byKey = keys(of: fields)
        let linkKeys = LinkKeys(fields)
        var occurrences: [String: Int] = [:]
        var lineLinks: [LineLinks] = []
        for (index, line) in textLines(text).enumerated() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            var (item, links) = try self.item(line, at: "line \(index + 1)", timeZone: timeZone, fields: byKey, linkKeys: linkKeys)
            if case .line(let identity) = item.identity {
                occurrences[identity, default: 0] += 1
                item.identity = .line(numbered(identity, occurrences[identity]!))
            }
            batch.items.append(item)
            lineLinks.append(links)
        }
        if lineLinks.contains(where: { !$0.words.isEmpty }) { try resolve(lineLinks, in: &batch, keys: linkKeys) }
        return batch
    }

    /// The add-ons that are the item's own fields, or topydo's link keys,
    /// which no declared field takes.
    static let ownKeys = Set(OwnField.all.flatMap(\.todoTxtKeys) + [LinkKeys.label, LinkKeys.dependedOn])

    /// The declared fields by their key in a line; the first field to name
    /// a key has it, and none takes one of `ownKeys`. Links are not read
    /// by key alone (`LinkKeys`).
    static func keys(of fields: FieldCatalog) -> [String: FieldDeclaration] {
        var byKey: [String: FieldDeclaration] = [:]
        for field in fields.declarations
        where !ownKeys.contains(field.todoTxtKey) && field.kind != .item && field.kind != .items {
            if byKey[field.todoTxtKey] == nil { byKey[field.todoTxtKey] = field }
        }
        return byKey
    }

    /// The keys links are written with (see the type's comment), for the
    /// link fields `fields` has.
    struct LinkKeys {
        /// topydo's label of a line others link to.
        static let label = "id"
        /// topydo's key on a line another depends on, naming that one's label.
        static let dependedOn = "p"
        /// Whether `fields` has `depends`.
        let depends: Bool
        /// The key naming a line's parent (`parent:`), when `fields` has `parent`.
        let parent: String?

        init(_ fields: FieldCatalog) {
            depends = fields[FieldDeclaration.depends.name]?.kind == .items
            parent = fields[FieldDeclaration.parent.name].flatMap { $0.kind == .item ? $0.todoTxtKey : nil }
        }
    }

    /// The link words of one line, taken out of its title while the file is read.
    struct LineLinks {
        enum Kind {
            case label, dependedOn, parent
        }
        /// Each link word with where in the title it stood (the number of
        /// title words before it), should it go back there.
        var words: [(kind: Kind, label: String, word: Substring, position: Int)] = []
        var titleWords: [Substring] = []
    }

    /// Links the lines of `batch` by their labels, and puts the link words
    /// that name no line back into their titles, said in remarks.
    private static func resolve(_ lines: [LineLinks], in batch: inout ImportBatch, keys: LinkKeys) throws(ImportProblem) {
        var owners: [String: Int] = [:]
        for (index, line) in lines.enumerated() {
            for word in line.words where word.kind == .label {
                if let owner = owners[word.label], owner != index {
                    batch.items[index].remarks.append(
                        "\(ImportFields.shown(word.word)) not used: \(batch.items[owner].source) has it already, and links name that line")
                } else {
                    owners[word.label] = index
                }
            }
        }
        var dependsCount = Array(repeating: 0, count: lines.count)
        for (index, line) in lines.enumerated() {
            var unread: [(word: Substring, position: Int)] = []
            var hasParent = false
            for word in line.words where word.kind != .label {
                let owner = owners[word.label]
                guard let owner, owner != index, word.kind == .dependedOn || !hasParent else {
                    unread.append((word.word, word.position))
                    let why =
                        owner == nil
                        ? "no line has \(LinkKeys.label):\(word.label)"
                        : owner == index ? "it names its own line" : "an item has one parent"
                    batch.items[index].remarks.append("\(ImportFields.shown(word.word)) kept in the title: \(why)")
                    continue
                }
                if word.kind == .dependedOn {
                    // topydo's `p:` is on the line depended on, naming the one that depends.
                    dependsCount[owner] += 1
                    guard dependsCount[owner] <= FieldKind.maximumLinks else {
                        throw ImportProblem(
                            location: batch.items[owner].source,
                            message: "more than \(FieldKind.maximumLinks) lines carry \(LinkKeys.dependedOn):\(word.label); "
                                + "an item depends on at most \(FieldKind.maximumLinks)")
                    }
                    batch.items[owner].links.append(
                        ImportedLink(
                            field: FieldDeclaration.depends.name, target: .batchItem(index), value: String(word.word),
                            property: LinkKeys.dependedOn, source: .none))
                } else {
                    hasParent = true
                    batch.items[index].links.append(
                        ImportedLink(
                            field: FieldDeclaration.parent.name, target: .batchItem(owner), value: String(word.word),
                            property: keys.parent ?? "parent", source: .none))
                }
            }
            guard !unread.isEmpty else { continue }
            var words = line.titleWords
            for (offset, word) in unread.sorted(by: { $0.position < $1.position }).enumerated() {
                words.insert(word.word, at: min(word.position + offset, words.count))
            }
            batch.items[index].title = try ImportFields.title(words.joined(separator: " "), at: batch.items[index].source)
        }
    }

    /// Identities of lines that are the same: the second is `…#2`.
    static func numbered(_ identity: String, _ occurrence: Int) -> String {
        occurrence == 1 ? identity : identity + "#\(occurrence)"
    }

    private static func item(
        _ line: Substring, at location: String, timeZone: TimeZone, fields: [String: FieldDeclaration], linkKeys: LinkKeys
    ) throws(ImportProblem) -> (ImportedItem, LineLinks) {
        var words = line.split(whereSeparator: \.isWhitespace)[...]
        func day(_ text: Substring?) -> CalendarDay? { text.flatMap { CalendarDay(iso: String($0)) } }
        var isDone = false
        var completed: CalendarDay?
        var created: CalendarDay?
        var letter: Character?
        if words.first == "x" {
            isDone = true
            words.removeFirst()
            if let date = day(words.first) {
                completed = date
                words.removeFirst()
                if let date = day(words.first) {
                    created = date
                    words.removeFirst()
                }
            }
        }
        if let first = words.first, first.count == 3, first.first == "(", first.last == ")",
            let middle = first.dropFirst().first, middle.isASCII, middle.isUppercase
        {
            letter = middle
            words.removeFirst()
        }
        if created == nil, let date = day(words.first) {
            created = date
            words.removeFirst()
        }
        var remarks: [String] = []
        var titleWords: [Substring] = []
        var project: String?
        var tags: [String] = []
        var due: DueDate?
        var wait: DueDate?
        var recurrence: Recurrence?
        var values: [String: FieldValue] = [:]
        var links = LineLinks()
        for word in words {
            if word.count > 1, word.first == "+", project == nil {
                project = ImportFields.project(String(word.dropFirst()), remarks: &remarks)
                continue
            }
            if word.count > 1, word.first == "@" {
                tags.append(String(word.dropFirst()))
                continue
            }
            guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else {
                titleWords.append(word)
                continue
            }
            let value = word[word.index(after: colon)...]
            switch word[..<colon] {
            case "due":
                guard let date = day(value) else {
                    throw ImportProblem(location: location, message: "\(word) is not a date (write YYYY-MM-DD)")
                }
                due = .day(date)
            case "wait":
                // todod's own add-on (todo.txt's threshold `t:` is `scheduled`):
                // one that is no date is a word of the title, as it was before.
                guard let date = day(value) else {
                    titleWords.append(word)
                    remarks.append("\(ImportFields.shown(word)) kept in the title: not a date (write YYYY-MM-DD)")
                    continue
                }
                wait = .day(date)
            case "rec":
                recurrence = Self.recurrence(value)
                if recurrence == nil {
                    // Kept in the title, as other add-ons todod does not read are.
                    titleWords.append(word)
                    remarks.append("\(ImportFields.shown(word)) kept in the title: todod cannot repeat that way")
                }
            case "pri" where value.count == 1 && value.first!.isUppercase && letter == nil:
                letter = value.first
            case LinkKeys.label where !value.isEmpty && (linkKeys.depends || linkKeys.parent != nil):
                links.words.append((.label, String(value), word, titleWords.count))
            case LinkKeys.dependedOn where !value.isEmpty && linkKeys.depends:
                links.words.append((.dependedOn, String(value), word, titleWords.count))
            case let key where !value.isEmpty && linkKeys.parent.map({ key == $0 }) == true:
                links.words.append((.parent, String(value), word, titleWords.count))
            case let key:
                guard let field = fields[String(key)] else {
                    titleWords.append(word)
                    continue
                }
                if let read = try self.value(String(value), of: field, at: location) {
                    values[field.name] = read
                    continue
                }
                // `t:` is todo.txt's threshold, a date as `due:` is, refused
                // as `due:` is; another key may be a word of the text.
                if key == "t" { throw ImportProblem(location: location, message: "\(word) is not a date (write YYYY-MM-DD)") }
                titleWords.append(word)
                let expected = FieldValueText.expected(field, date: "a date (YYYY-MM-DD)")
                remarks.append("\(ImportFields.shown(word)) kept in the title: not \(expected)")
            }
        }
        var priority: Priority?
        switch letter {
        case "A": priority = .high
        case "B": priority = .medium
        case "C": priority = .low
        case let letter?:
            tags.append("pri-\(letter)")
            remarks.append("priority (\(letter)) kept as tag pri-\(letter) (todod has three priorities, H, M and L, which todo.txt writes as A, B and C)")
        case nil: break
        }
        let text = titleWords.joined(separator: " ")
        // A line of nothing but add-ons is its title, links and all.
        if text.isEmpty { links.words = [] }
        links.titleWords = titleWords
        let title = try ImportFields.title(text.isEmpty ? words.joined(separator: " ") : text, at: location)
        let cleanTags = try ImportFields.tags(tags, at: location, remarks: &remarks)
        func start(_ day: CalendarDay?) -> Date? { day?.start(in: timeZone) }
        let item = ImportedItem(
            identity: .line(identity(title: title, project: project, tags: cleanTags)), source: location, title: title,
            isDone: isDone, createdAt: start(created), completedAt: start(completed), due: due, wait: wait,
            tags: cleanTags, project: project, priority: priority, recurrence: recurrence, values: values, remarks: remarks)
        return (item, links)
    }

    /// The value of `field` in the text after its key, or nil when it is
    /// not one: a day `2024-01-15`, a number, a duration (`PT2H`), a word.
    private static func value(_ text: String, of field: FieldDeclaration, at location: String) throws(ImportProblem) -> FieldValue? {
        switch field.kind {
        case .date: return CalendarDay(iso: text).map { .date(.day($0)) }
        case .number: return NumberText.number(text).map(FieldValue.number)
        case .duration: return FieldValueText.duration(text).map(FieldValue.duration)
        case .item, .items: return nil
        case .text:
            guard !text.isEmpty, FieldValueText.allows(text, in: field) else { return nil }
            return .text(try ImportFields.valueText(text, of: field.todoTxtKey, at: location))
        }
    }

    /// Whether a line can say `value`: all can but a text that is empty or
    /// has a space, which would not be one word. An import keeps such a
    /// value rather than clearing it (`ImportPlan.values`).
    static func canSay(_ value: FieldValue) -> Bool {
        guard case .text(let text) = value else { return true }
        return !text.isEmpty && !text.contains(where: \.isWhitespace)
    }

    /// `+1w` (from the due date), `2m` (from completion), `1b` (weekdays).
    static func recurrence(_ text: Substring) -> Recurrence? {
        let fromDue = text.first == "+"
        let rest = fromDue ? text.dropFirst() : text
        guard let unit = rest.last, let count = rest.dropLast().isEmpty ? 1 : Int(rest.dropLast()), count > 0 else { return nil }
        let period: Recurrence.Period
        switch unit {
        case "d": period = .every(count, .day)
        case "w": period = .every(count, .week)
        case "m": period = .every(count, .month)
        case "y": period = .every(count, .year)
        case "b" where count == 1: period = .weekdays
        default: return nil
        }
        return try? Recurrence(period, countsFromCompletion: !fromDue)
    }

    /// The add-ons a line's identity leaves out.
    static let identityFreeKeys = [
        "due:", "t:", "wait:", "rec:", "pri:", LinkKeys.label + ":", LinkKeys.dependedOn + ":", FieldDeclaration.parent.todoTxtKey + ":",
    ]

    /// A line's identity: its words in order, then its projects and
    /// contexts sorted (where they stand in the line does not matter),
    /// without the add-ons a re-import updates (`due:`, `t:`, `wait:`,
    /// `rec:`, `pri:`, and the links' `id:`, `p:`, `parent:`): one kept in
    /// the title while it could not be read still finds its item once it can.
    static func identity(of words: some Sequence<Substring>) -> String {
        var text: [Substring] = []
        var projects: [String] = []
        var contexts: [String] = []
        for word in words {
            if word.count > 1, word.first == "+" {
                projects.append(NameCase.lowercased(String(word)))
            } else if word.count > 1, word.first == "@" {
                contexts.append(NameCase.lowercased(String(word)))
            } else if !identityFreeKeys.contains(where: { word.hasPrefix($0) }) {
                text.append(word)
            }
        }
        return (text.map(String.init) + projects.sorted() + contexts.sorted()).joined(separator: " ")
    }

    /// The identity the line an export writes for `item` has.
    public static func identity(of item: TodoItem) -> String {
        identity(title: item.title, project: item.project, tags: item.tags)
    }

    /// The identity of a line with these fields, as they are once read (tags
    /// and project made valid, tags once each): computed the same way for a
    /// line of the file and an item of the list, so the two meet whatever
    /// the reading changed. A tag kept for a priority below C (`pri-D`) is
    /// the priority, which a re-import updates, and is left out.
    static func identity(title: String, project: String?, tags: some Sequence<String>) -> String {
        var words = [title]
        if let project { words.append("+" + project) }
        words += tags.filter { !isPriorityTag($0) }.map { "@" + $0 }
        return identity(of: words.joined(separator: " ").split(separator: " "))
    }

    private static func isPriorityTag(_ tag: String) -> Bool {
        tag.count == 5 && tag.hasPrefix("pri-") && (tag.last?.isUppercase ?? false)
    }

    /// The title, project and contexts of `item`'s line.
    static func body(of item: TodoItem) -> String {
        var words = [item.title]
        if let project = item.project { words.append("+" + project) }
        words += item.sortedTags.map { "@" + $0 }
        return words.joined(separator: " ")
    }

    /// `item` as one todo.txt line, with its newline. Only values that read
    /// back as themselves are written: a value whose field is no longer
    /// declared (an orphan), or that no longer fits its field (`size:XL`
    /// once S, M and L are allowed), would come back as title words, and the
    /// line would then no longer match its item on a re-import (the title is
    /// its identity); a text a line cannot say (`canSay`) is left out too.
    static func entry(_ item: TodoItem, timeZone: TimeZone, fields: FieldCatalog = .builtIn, links: LinkNames? = nil) -> String {
        let letters: [Priority: String] = [.high: "A", .medium: "B", .low: "C"]
        var words: [String] = []
        if item.isDone {
            words.append("x")
            words.append(CalendarDay(item.completedAt ?? item.updatedAt, in: timeZone).description)
        } else if let priority = item.priority {
            words.append("(\(letters[priority]!))")
        }
        words.append(CalendarDay(item.createdAt, in: timeZone).description)
        words.append(body(of: item))
        func day(_ date: DueDate) -> String {
            switch date {
            case .day(let day): day.description
            case .moment(let moment): CalendarDay(moment, in: timeZone).description
            }
        }
        if let due = item.due { words.append("due:" + day(due)) }
        let byKey = item.values.isEmpty ? [:] : keys(of: fields)
        for (_, field, value) in fields.ordered(item.values) where canSay(value) {
            guard let field, field.kind == value.kind else { continue }
            if case .text(let text) = value, !field.allowedValues.isEmpty, !field.allowedValues.contains(text) { continue }
            // A key another field reads (or one of the item's own) would
            // come back as that: such a value is left out.
            let key = field.todoTxtKey
            guard byKey[key]?.name == field.name, !ownKeys.contains(key) else { continue }
            let text: String =
                switch value {
                case .text(let text): text
                case .number(let number): NumberText.text(of: number)
                case .date(let date): day(date)
                case .duration(let seconds): DurationText.iso8601(seconds: seconds)
                case .items(let ids): ids.map(\.description).joined(separator: ",")
                }
            words.append(key + ":" + text)
        }
        if let wait = item.wait { words.append("wait:" + day(wait)) }
        if let recurrence = item.recurrence, let text = text(of: recurrence) { words.append("rec:" + text) }
        if item.isDone, let priority = item.priority { words.append("pri:" + letters[priority]!) }
        if let links, links.list != nil { words += linkWords(of: item, fields: fields, links: links) }
        return words.joined(separator: " ") + "\n"
    }

    /// `item`'s link words, labels being ids: `id:` when it depends on
    /// another line or has subtasks, `p:` for each item that depends on it,
    /// `parent:` naming its parent. None for an item with no link, and none
    /// without the list (which alone knows who depends on an item).
    private static func linkWords(of item: TodoItem, fields: FieldCatalog, links: LinkNames) -> [String] {
        let keys = LinkKeys(fields)
        var words: [String] = []
        let depends = keys.depends ? item.values[FieldDeclaration.depends.name]?.linkedIDs ?? [] : []
        let dependents = keys.depends ? links.dependents(of: item.id) : []
        let parent = keys.parent != nil ? item.values[FieldDeclaration.parent.name]?.linkedIDs.first : nil
        if !depends.isEmpty || (keys.parent != nil && links.hasChildren(item.id)) { words.append(LinkKeys.label + ":" + item.id.description) }
        for dependent in dependents { words.append(LinkKeys.dependedOn + ":" + dependent.description) }
        if let parent, let key = keys.parent { words.append(key + ":" + parent.description) }
        return words
    }

    private static func text(of recurrence: Recurrence) -> String? {
        let sign = recurrence.countsFromCompletion ? "" : "+"
        switch recurrence.period {
        case .weekdays: return sign + "1b"
        case .every(let count, let unit):
            let letter: String =
                switch unit {
                case .day: "d"
                case .week: "w"
                case .month: "m"
                case .year: "y"
                }
            return sign + "\(count)" + letter
        }
    }
}
