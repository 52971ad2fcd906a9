import BenchmarkSupport
import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels
import TodoViewState

/// The "Organise real work" scenario: a list with the fields people use
/// (tags, dotted projects, priorities, due dates around today, wait dates,
/// repetitions) and ten named views with different queries, sorts and
/// groupings open at once, as terminals watching them would keep them.
///
/// It measures what the issue's targets name: one edit in the view-model
/// layer (a view tests the one changed item against its query, it never
/// re-runs it), the size of the events an edit makes (the same edits on a
/// list of `smallCount` items are the floor: an event must not grow with
/// the list), and opening a new view of the whole list. The floor of an
/// edit is one pass of one view's query over every item: what a view that
/// re-ran its query would pay, per view, on every edit.
struct OrganisedWork {
    static let tags = [
        "work", "home", "errands", "shop", "someday", "calls", "email", "read", "health", "finance",
        "family", "garden", "car", "travel", "study", "music", "cook", "fix", "plan", "review",
    ]
    static let projects = [
        "home.garden", "home.kitchen", "home.repairs", "work.q4", "work.q1", "work.hiring", "work.report",
        "personal.health", "personal.finance", "family.school", "family.trips", "study.swift", "study.french",
        "car", "garden",
    ]
    static let verbs = ["write", "call", "buy", "fix", "plan", "review", "email", "read", "book", "clean", "pay", "send"]
    static let nouns = [
        "report", "plumber", "groceries", "bike", "budget", "slides", "invoice", "dentist", "tickets", "roses",
        "hedge", "contract", "weekly report", "tyres", "homework", "notes",
    ]

    /// The ten named views: name, query, sort, filter, grouped by project.
    static let views: [(name: String, query: String, sort: String, filter: ListFilter, grouped: Bool)] = [
        ("work", "+work", "priority,due-", .active, false),
        ("home", "project:home and not +someday", "urgency", .active, true),
        ("overdue", "overdue", "due", .active, false),
        ("week", "due.before:eow", "due", .active, false),
        ("important", "priority.above:L", "priority,due-", .active, false),
        ("waiting", "status:waiting", "due", .all, false),
        ("reports", "/report/", "title", .all, false),
        ("errands", "+errands or +shop", "project,created", .active, true),
        ("recurring", "recurring", "due", .all, false),
        ("everything", "", "title", .all, true),
    ]

    static let edits = 1_000
    static let smallCount = 1_000

    let count: Int
    /// The fixed moment the clock says, and the clock.
    let now: Date
    let clock: TodoClock
    let report: Report

    /// The items: deterministic, the same on every run.
    static func items(count: Int, now: Date, timeZone: TimeZone) -> [TodoItem] {
        var random = SplitMix(seed: 2026)
        let today = CalendarDay(now, in: timeZone)
        return (1...count).map { index in
            let title = verbs[random.below(verbs.count)] + " " + nouns[random.below(nouns.count)] + " \(index)"
            let createdAt = now.addingTimeInterval(-Double(random.below(365 * 86_400)) - 60)
            var tags: Set<String> = []
            for _ in 0..<random.below(4) { tags.insert(Self.tags[random.below(Self.tags.count)]) }
            let project = random.below(10) < 7 ? projects[random.below(projects.count)] : nil
            let priority: Priority? = [nil, nil, .low, .medium, .high][random.below(5)]
            var due: DueDate?
            if random.below(10) < 6 {
                let day = today.adding(days: random.below(121) - 60)
                due = random.below(5) == 0
                    ? .moment(day.start(in: timeZone).addingTimeInterval(Double(9 + random.below(9)) * 3600)) : .day(day)
            }
            let wait: DueDate? = random.below(20) == 0 ? .day(today.adding(days: random.below(30) - 5)) : nil
            var recurrence: Recurrence?
            if random.below(30) == 0 {
                recurrence = [Recurrence.daily, .weekly, .monthly, .weekdays][random.below(4)]
                if due == nil { due = .day(today.adding(days: random.below(14))) }
            }
            let isDone = random.below(4) == 0
            let completedAt = isDone ? min(now, createdAt.addingTimeInterval(Double(random.below(86_400)))) : nil
            return TodoItem(
                id: TodoID(Int64(index)), title: title, isDone: isDone, createdAt: createdAt,
                updatedAt: completedAt ?? createdAt, completedAt: completedAt, due: due, tags: tags,
                project: project, priority: priority, wait: wait, recurrence: recurrence)
        }
    }

    /// A view model over `items` with the ten named views saved (and so open).
    static func viewModel(_ items: [TodoItem], clock: TodoClock) throws -> TodoListViewModel {
        let viewModel = TodoListViewModel(snapshot: ListSnapshot(items: items, nextID: TodoID(Int64(items.count + 1))), clock: clock)
        for view in views {
            _ = try viewModel.saveView(view.name, try definition(view.query, view.sort, view.filter, grouped: view.grouped))
        }
        return viewModel
    }

    static func definition(_ query: String, _ sort: String, _ filter: ListFilter, grouped: Bool = false) throws -> ViewDefinition {
        ViewDefinition(
            filter: filter, query: try Query.parse(query), sort: try ListSort(parsing: sort), grouping: grouped ? .project : nil)
    }

    func run() throws {
        report.section("organise real work: \(count) items with tags, projects, priorities, dates; 10 named views + main")
        let items = Self.items(count: count, now: now, timeZone: clock.timeZone)
        report.note(
            "\(items.count(where: \.isDone)) done, \(items.count { !$0.tags.isEmpty }) tagged, "
                + "\(items.count { $0.project != nil }) in a project, \(items.count { $0.due != nil }) with a due date, "
                + "\(items.count { $0.wait != nil }) with a wait date, \(items.count { $0.recurrence != nil }) recurring")

        // The floor of an edit: one view's query run over the whole list once.
        let work = try Query.parse("+work").compile(resolvingDates: { _ in throw QueryFloorError() }, timeZone: clock.timeZone, now: now)
        var passTimes: [Double] = []
        for _ in 0..<5 {
            let (matched, time) = measure { items.count { work.matches($0) } }
            precondition(matched > 0)
            passTimes.append(time)
        }
        let queryPass = percentile(passTimes, 0.5)
        report.say("floor: one pass of the query +work over \(count) items, median", queryPass, "ms")

        let (viewModel, setupTime) = try measure { try Self.viewModel(items, clock: clock) }
        report.say("build the view model and save the 10 named views", setupTime, "ms")
        let snapshot = viewModel.snapshot
        let (_, startTime) = measure { TodoListViewModel(snapshot: snapshot, clock: clock) }
        report.say("start from a snapshot with the 10 named views", startTime, "ms")
        for view in Self.views {
            let state = viewModel.state(of: .shared(view.name))!
            report.note("view \(view.name): query \"\(view.query)\", sort \(view.sort)\(view.grouped ? ", by project" : ""): \(state.rows.count) rows")
        }

        // The floor of an event: the same edits on a small list.
        let small = Self.items(count: Self.smallCount, now: now, timeZone: clock.timeZone)
        let smallFigures = try EditRun(viewModel: try Self.viewModel(small, clock: clock), items: small, edits: Self.edits).run()
        let figures = try EditRun(viewModel: viewModel, items: items, edits: Self.edits).run()

        report.section("one edit in the view-model layer, \(count) items, 11 views (median and p99 of \(Self.edits) each)")
        report.note(EditRun.Kind.allCases.map { "\($0.label): \($0.command)" }.joined(separator: "; "))
        figures.report(into: report, anchor: (name: "one query pass", value: queryPass), goal: .atMost(0.1), figure: "one edit")
        report.note("edits that changed nothing (already so): \(figures.unchanged)")

        report.section("the events of one edit (view.changed lines): \(count) items against \(Self.smallCount)")
        let floorName = "at \(Self.smallCount) items"
        for kind in EditRun.Kind.allCases {
            report.compare(
                "\(kind.label): largest event of one view", Double(figures.largestEvent[kind]!), "B",
                anchor: (name: floorName, value: Double(smallFigures.largestEvent[kind]!)), goal: .atMostTimes(1.5),
                figure: "largest event, \(kind.command)")
            report.compare(
                "\(kind.label): largest sum over the 11 views", Double(figures.largestSum[kind]!), "B",
                anchor: (name: floorName, value: Double(smallFigures.largestSum[kind]!)), goal: .atMostTimes(1.5),
                figure: "all views' events, \(kind.command)")
        }

        report.section("open a new own view of \(count) items (median of 7, each closed after)")
        let openings: [(String, ViewDefinition)] = [
            ("query +work or project:home", try Self.definition("+work or project:home", "priority,due-", .active)),
            ("every item by title", try Self.definition("", "title", .all)),
            ("active, by project, urgency", try Self.definition("", "urgency", .active, grouped: true)),
        ]
        report.note("the query view is sorted priority,due-; the last is grouped by project")
        for (index, (label, definition)) in openings.enumerated() {
            var times: [Double] = []
            var rows = 0
            for run in 0..<7 {
                let id = ViewID.own(1000 + index * 10 + run)
                let (state, time) = try measure { try viewModel.openView(id, definition: definition) }
                rows = state.rows.count
                viewModel.closeView(id)
                times.append(time)
            }
            report.compare(
                "open \(label): median", percentile(times, 0.5), "ms", anchor: nil, goal: .atMost(150),
                figure: "open a view of \(count) items, \(label) (\(rows) rows): median")
        }
    }
}

/// Runs `edits` of each kind on a view model, in turns, timing each and
/// measuring the events it makes.
struct EditRun {
    enum Kind: CaseIterable, Hashable {
        case modify, toggle, add, delete

        /// Short, for report lines.
        var label: String {
            switch self {
            case .modify: "modify"
            case .toggle: "done/undone"
            case .add: "add"
            case .delete: "delete"
            }
        }

        /// The command, for the summary.
        var command: String {
            switch self {
            case .modify: ".modify(id, \"+work pri:H\")"
            case .toggle: ".setDone(id, !done)"
            case .add: ".addText(\"new thing +work due:fri\")"
            case .delete: ".delete(id)"
            }
        }
    }

    struct Figures {
        var times: [Kind: [Double]] = [:]

        /// A median and a p99 line per kind, against `goal`.
        func report(into report: Report, anchor: (name: String, value: Double)?, goal: Report.Goal?, figure: String) {
            for kind in Kind.allCases {
                let times = self.times[kind]!
                report.compare(
                    "\(kind.label): median", percentile(times, 0.5), "ms", anchor: anchor, goal: goal,
                    figure: "\(figure), \(kind.command): median")
                report.compare(
                    "\(kind.label): p99", percentile(times, 0.99), "ms", anchor: anchor, goal: nil,
                    figure: "\(figure), \(kind.command): p99")
            }
        }
        /// The largest single view's `view.changed` line, in bytes.
        var largestEvent: [Kind: Int] = [:]
        /// The largest total over every view's line for one edit.
        var largestSum: [Kind: Int] = [:]
        var unchanged = 0
    }

    let viewModel: TodoListViewModel
    let items: [TodoItem]
    let edits: Int

    func run() throws -> Figures {
        var random = SplitMix(seed: 7)
        var live = items.map(\.id)
        var done = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.isDone) })
        var figures = Figures()
        func pick() -> TodoID { live[random.below(live.count)] }
        func record(_ kind: Kind, _ outcome: CommandOutcome, _ time: Double) {
            figures.times[kind, default: []].append(time)
            if outcome.description == nil { figures.unchanged += 1 }
            let sizes = outcome.changes.values.map(Self.wireSize)
            figures.largestEvent[kind] = max(figures.largestEvent[kind] ?? 0, sizes.max() ?? 0)
            figures.largestSum[kind] = max(figures.largestSum[kind] ?? 0, sizes.reduce(0, +))
            if let row = outcome.row { done[TodoID(row.id)] = row.done }
        }
        for _ in 0..<edits {
            let modified = pick()
            let (modifyOutcome, modifyTime) = try measure { try viewModel.perform(.modify(modified, "+work pri:H")) }
            record(.modify, modifyOutcome, modifyTime)

            let toggled = pick()
            let (toggleOutcome, toggleTime) = try measure { try viewModel.perform(.setDone(toggled, !done[toggled]!)) }
            record(.toggle, toggleOutcome, toggleTime)

            let (addOutcome, addTime) = try measure { try viewModel.perform(.addText("new thing +work due:fri")) }
            record(.add, addOutcome, addTime)
            if let row = addOutcome.row { live.append(TodoID(row.id)) }

            let deleted = live[random.below(live.count)]
            let (deleteOutcome, deleteTime) = try measure { try viewModel.perform(.delete(deleted)) }
            record(.delete, deleteOutcome, deleteTime)
            // A parent goes with its subtasks (in a list with trees).
            let removed = Set((deleteOutcome.write?.changes ?? []).filter { $0.after == nil }.map(\.id))
            live.removeAll { removed.contains($0) }
        }
        return figures
    }

    /// The bytes of the `view.changed` line a view's subscribers would get.
    static func wireSize(_ change: TodoListChange) -> Int {
        let params = ListViewChanged.Params(subscription: 1, body: ChangeBody(revision: 1, change: change, cause: nil))
        return MessageEncoding.notification(ListViewChanged.self, params: params).count
    }
}

struct QueryFloorError: Error {}

/// SplitMix64: the same items and edits on every run.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
