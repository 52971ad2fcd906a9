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
public enum TodoTxtFormat {
    public static func read(_ text: String, timeZone: TimeZone, fields: FieldCatalog = .builtIn) throws(ImportProblem)
        -> ImportBatch
    {
        var batch = ImportBatch(fields: fields)
        let byKey = keys(of: fields)
        var occurrences: [String: Int] = [:]
        for (index, line) in textLines(text).enumerated() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            var item = try self.item(line, at: "line \(index + 1)", timeZone: timeZone, fields: byKey)
            if case .line(let identity) = item.identity {
                occurrences[identity, default: 0] += 1
                item.identity = .line(numbered(identity, occurrences[identity]!))
            }
            batch.items.append(item)
        }
        return batch
    }

    /// The add-ons that are the item's own fields, which no declared field takes.
    static let ownKeys: Set<String> = ["due", "wait", "rec", "pri"]

    /// The declared fields by their key in a line; the first field to name
    /// a key has it, and none takes one of `ownKeys`.
    static func keys(of fields: FieldCatalog) -> [String: FieldDeclaration] {
        var byKey: [String: FieldDeclaration] = [:]
        for field in fields.declarations where !ownKeys.contains(field.todoTxtKey) {
            if byKey[field.todoTxtKey] == nil { byKey[field.todoTxtKey] = field }
        }
        return byKey
    }

    /// Identities of lines that are the same: the second is `…#2`.
    static func numbered(_ identity: String, _ occurrence: Int) -> String {
        occurrence == 1 ? identity : identity + "#\(occurrence)"
    }

    private static func item(_ line: Substring, at location: String, timeZone: TimeZone, fields: [String: FieldDeclaration])
        throws(ImportProblem) -> ImportedItem
    {
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
        let title = try ImportFields.title(text.isEmpty ? words.joined(separator: " ") : text, at: location)
        let cleanTags = try ImportFields.tags(tags, at: location, remarks: &remarks)
        func start(_ day: CalendarDay?) -> Date? { day?.start(in: timeZone) }
        return ImportedItem(
            identity: .line(identity(title: title, project: project, tags: cleanTags)), source: location, title: title,
            isDone: isDone, createdAt: start(created), completedAt: start(completed), due: due, wait: wait,
            tags: cleanTags, project: project, priority: priority, recurrence: recurrence, values: values, remarks: remarks)
    }

    /// The value of `field` in the text after its key, or nil when it is
    /// not one: a day `2024-01-15`, a number, a duration (`PT2H`), a word.
    private static func value(_ text: String, of field: FieldDeclaration, at location: String) throws(ImportProblem) -> FieldValue? {
        switch field.kind {
        case .date: return CalendarDay(iso: text).map { .date(.day($0)) }
        case .number: return NumberText.number(text).map(FieldValue.number)
        case .duration: return FieldValueText.duration(text).map(FieldValue.duration)
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

    /// A line's identity: its words in order, then its projects and
    /// contexts sorted (where they stand in the line does not matter),
    /// without the add-ons a re-import updates (`due:`, `t:`, `wait:`,
    /// `rec:`, `pri:`): one kept in the title while it could not be read
    /// still finds its item once it can.
    static func identity(of words: some Sequence<Substring>) -> String {
        var text: [Substring] = []
        var projects: [String] = []
        var contexts: [String] = []
        for word in words {
            if word.count > 1, word.first == "+" {
                projects.append(NameCase.lowercased(String(word)))
            } else if word.count > 1, word.first == "@" {
                contexts.append(NameCase.lowercased(String(word)))
            } else if !["due:", "t:", "wait:", "rec:", "pri:"].contains(where: { word.hasPrefix($0) }) {
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
    static func entry(_ item: TodoItem, timeZone: TimeZone, fields: FieldCatalog = .builtIn) -> String {
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
                }
            words.append(key + ":" + text)
        }
        if let wait = item.wait { words.append("wait:" + day(wait)) }
        if let recurrence = item.recurrence, let text = text(of: recurrence) { words.append("rec:" + text) }
        if item.isDone, let priority = item.priority { words.append("pri:" + letters[priority]!) }
        return words.joined(separator: " ") + "\n"
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
