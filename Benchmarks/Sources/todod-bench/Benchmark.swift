import BenchmarkSupport
import Foundation
import TodoModel
import TodoProtocol
import TodoStorage
import TodoViewModels

/// `todod-bench`: measures the list view model at scale, in-process.
///
/// Build and run in release mode: `scripts/bench view-models [ITEMS]
/// [plain|organised|linked]` (default 100,000 items, plain and organised;
/// linked, the organised list with a fifth of it in trees and chains
/// (`LinkedWork`), when named).
///
/// The plain scenario: with five views open (the shared main view and four
/// own views with other filters and sorts) over items with a title and
/// some due dates, it prints: the time to build the view model and its first
/// snapshot; the time and change-set size of one add, one toggle and one
/// delete in the middle of the list (median and p99 over many runs) in the
/// view-model layer alone — a pure state machine, no store — and the time to
/// store the same edits' writes in an in-memory SQLite database; and the
/// process's resident memory.
///
/// The organised scenario (`OrganisedWork`): items with tags, projects,
/// priorities, due and wait dates and repetitions, ten named views with
/// different queries, sorts and groupings; one edit's time and events, and
/// opening a new view, against the targets. A summary table ends
/// the run.
@main
struct Benchmark {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        let count = arguments.lazy.compactMap(Int.init).first ?? 100_000
        let scenarios = Set(arguments.filter { Int($0) == nil })
        let now = Date(timeIntervalSince1970: 1_795_345_200)
        let clock = TodoClock(timeZone: TimeZone(identifier: "UTC")!, now: { now })
        if scenarios.isEmpty || scenarios.contains("plain") { try plain(count: count, clock: clock) }
        if scenarios.isEmpty || scenarios.contains("organised") {
            let report = Report()
            try OrganisedWork(count: count, now: now, clock: clock, report: report).run()
            summarise(report, scenario: "\(count) organised")
        }
        if scenarios.contains("linked") {
            let report = Report()
            try LinkedWork(count: count, now: now, clock: clock, report: report).run()
            summarise(report, scenario: "\(count) linked")
        }
    }

    /// The targets missed, and the summary table of a scenario's report.
    static func summarise(_ report: Report, scenario: String) {
        print("")
        print(report.missed.isEmpty
            ? "every target met"
            : "\(report.missed.count) target(s) missed:\n" + report.missed.map(\.description).joined(separator: "\n"))
        print("\nSummary (`scripts/bench view-models \(scenario)`, load average \(ProcessFigures.loadAverage)):\n")
        print(report.rows.markdownTable(valueHeading: "todod"))
    }

    static func plain(count: Int, clock: TodoClock) throws {
        let runs = 300
        print("todod-bench: \(count) items, 5 open views, \(runs) runs per edit, release build expected\n")

        let items = (1...count).map { index in
            TodoItem(
                id: TodoID(Int64(index)), title: "item \(String(index * 7919 % 1_000_003))",
                isDone: index % 3 == 0, createdAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(index)),
                due: index % 5 == 0 ? .day(CalendarDay(year: 2026, month: 12, day: 1 + index % 28)) : nil)
        }
        let memoryBefore = residentMegabytes()

        let snapshot = ListSnapshot(items: items, nextID: TodoID(Int64(count + 1)))
        let (viewModel, loadTime) = measure { TodoListViewModel(snapshot: snapshot, clock: clock) }
        let (_, ownViewTime) = try measure { try viewModel.openView(.own(1), definition: ViewDefinition(filter: .active, sort: .title)) }
        try viewModel.openView(.own(2), definition: ViewDefinition(filter: .completed, sort: .due))
        try viewModel.openView(.own(3), definition: ViewDefinition(filter: .all, sort: .title))
        try viewModel.openView(.own(4), definition: ViewDefinition(filter: .active, sort: .due))
        let (state, snapshotTime) = measure { viewModel.state(of: .main)! }
        print(ReportLine("build the view model and the main view (creation order)", loadTime, "ms"))
        print(ReportLine("open an own view (active, by title)", ownViewTime, "ms"))
        print(ReportLine("first snapshot of the main view", snapshotTime, "ms"))
        print(ReportLine("rows in the main view", Double(state.rows.count), ""))

        var addTimes: [Double] = [], toggleTimes: [Double] = [], deleteTimes: [Double] = []
        var addSize = 0, toggleSize = 0, deleteSize = 0
        var writes: [ListWrite] = []
        for run in 0..<runs {
            let middle = TodoID(Int64(count / 2 + run * 2 + 1))
            let (added, addTime) = try measure { try viewModel.perform(.add(title: "new \(run)", due: nil)) }
            let (toggled, toggleTime) = try measure { try viewModel.perform(.setDone(middle, true)) }
            let (deleted, deleteTime) = try measure { try viewModel.perform(.delete(TodoID(middle.rawValue + 1))) }
            writes += [added.write, toggled.write, deleted.write].compactMap { $0 }
            addTimes.append(addTime)
            toggleTimes.append(toggleTime)
            deleteTimes.append(deleteTime)
            addSize = max(addSize, wireSize(added))
            toggleSize = max(toggleSize, wireSize(toggled))
            deleteSize = max(deleteSize, wireSize(deleted))
        }
        print("\n== an edit in the view-model layer (5 views, in place, no store)")
        let all = addTimes + toggleTimes + deleteTimes
        print(ReportLine("any edit: median", percentile(all, 0.5), "ms", target: .atMost(0.05)))
        for (label, times, size) in [("add", addTimes, addSize), ("toggle (middle)", toggleTimes, toggleSize),
                                     ("delete (middle)", deleteTimes, deleteSize)] {
            print(ReportLine("\(label): median", percentile(times, 0.5), "ms", target: .atMost(0.05)))
            print(ReportLine("\(label): p99", percentile(times, 0.99), "ms"))
            print(ReportLine("\(label): largest change set (main view)", Double(size), "bytes", target: .atMost(1024)))
        }

        print("\n== the same edits' writes, stored in an in-memory SQLite database")
        let store = try SQLiteTodoStore()
        try store.write([ListWrite(changes: items.map { ItemChange(before: nil, after: $0) })])
        var storeTimes: [Double] = []
        for write in writes {
            let (_, time) = try measure { try store.write([write]) }
            storeTimes.append(time)
        }
        print(ReportLine("one write: median", percentile(storeTimes, 0.5), "ms"))
        print(ReportLine("one write: p99", percentile(storeTimes, 0.99), "ms"))
        print("")
        print(ReportLine("resident memory before the view model", memoryBefore, "MiB"))
        print(ReportLine("resident memory now", residentMegabytes(), "MiB"))
    }

    /// The bytes of the `view.changed` line the main view's subscribers would get.
    static func wireSize(_ outcome: CommandOutcome) -> Int {
        guard let change = outcome.changes[.main] else { return 0 }
        let params = ListViewChanged.Params(subscription: 1, body: ChangeBody(revision: 1, change: change, cause: nil))
        return MessageEncoding.notification(ListViewChanged.self, params: params).count
    }

    static func residentMegabytes() -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
    }
}
