import BenchmarkSupport
import Foundation
import TodoModel
import TodoProtocol
import TodoStorage
import TodoViewModels

/// `todod-bench`: measures the list view model at scale, in-process.
///
/// Build and run in release mode: `swift build -c release --product todod-bench`
/// then `.build/release/todod-bench [ITEMS]` (default 100,000). It prints, next to
/// each target of the view-model issue: the time to build the view model and
/// its first snapshot, the time and change-set size of one add, one toggle and
/// one delete in the middle of the list (median and p99 over many runs), and
/// the process's resident memory.
@main
struct Benchmark {
    static func main() throws {
        let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 100_000
        let runs = 300
        print("todod-bench: \(count) items, \(runs) runs per edit, release build expected\n")

        let clock = TodoClock(timeZone: TimeZone(identifier: "UTC")!, now: { Date(timeIntervalSince1970: 1_795_345_200) })
        let items = (1...count).map { index in
            TodoItem(
                id: TodoID(Int64(index)), title: "item \(String(index * 7919 % 1_000_003))",
                isDone: index % 3 == 0, createdAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(index)),
                due: index % 5 == 0 ? .day(CalendarDay(year: 2026, month: 12, day: 1 + index % 28)) : nil)
        }
        let memoryBefore = residentMegabytes()

        for (name, store) in [("discarding store (view-model layer alone)", try DiscardingStore(items)),
                              ("in-memory SQLite store", try SQLiteStoreWith(items))] as [(String, any TodoStore)] {
            print("== \(name)")
            let (viewModel, loadTime) = try measure { try TodoListViewModel(store: store, clock: clock) }
            let (_, ownViewTime) = measure { viewModel.openView(.own(1), filter: .active, sort: .title) }
            let (snapshot, snapshotTime) = measure { viewModel.state(of: .main)! }
            print(ReportLine("load + build the main view (creation order)", loadTime, "ms"))
            print(ReportLine("open an own view (active, by title)", ownViewTime, "ms"))
            print(ReportLine("first snapshot of the main view", snapshotTime, "ms"))
            print(ReportLine("rows in the main view", Double(snapshot.rows.count), ""))

            var addTimes: [Double] = [], toggleTimes: [Double] = [], deleteTimes: [Double] = []
            var addSize = 0, toggleSize = 0, deleteSize = 0
            for run in 0..<runs {
                let middle = TodoID(Int64(count / 2 + run * 2 + 1))
                let (added, addTime) = try measure { try viewModel.perform(.add(title: "new \(run)", due: nil)) }
                let (toggled, toggleTime) = try measure { try viewModel.perform(.setDone(middle, true)) }
                let (deleted, deleteTime) = try measure { try viewModel.perform(.delete(TodoID(middle.rawValue + 1))) }
                addTimes.append(addTime)
                toggleTimes.append(toggleTime)
                deleteTimes.append(deleteTime)
                addSize = max(addSize, wireSize(added))
                toggleSize = max(toggleSize, wireSize(toggled))
                deleteSize = max(deleteSize, wireSize(deleted))
            }
            for (label, times, size) in [("add", addTimes, addSize), ("toggle (middle)", toggleTimes, toggleSize),
                                         ("delete (middle)", deleteTimes, deleteSize)] {
                print(ReportLine("\(label): median", percentile(times, 0.5), "ms", target: .atMost(1.0)))
                print(ReportLine("\(label): p99", percentile(times, 0.99), "ms"))
                print(ReportLine("\(label): largest change set (main view)", Double(size), "bytes", target: .atMost(1024)))
            }
            print("")
        }
        print(ReportLine("resident memory before the stores", memoryBefore, "MiB"))
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


/// Holds the items to start from and discards writes: isolates the view-model
/// layer's own cost from SQLite's.
final class DiscardingStore: TodoStore {
    let items: [TodoItem]
    init(_ items: [TodoItem]) throws { self.items = items }
    func load() throws -> StoredState { StoredState(items: items, nextID: TodoID(Int64(items.count + 1))) }
    func commit(_ write: StoreWrite) throws {}
}

/// Real SQLite in memory, filled in one transaction.
func SQLiteStoreWith(_ items: [TodoItem]) throws -> SQLiteTodoStore {
    let store = try SQLiteTodoStore()
    try store.commit(StoreWrite(changes: items.map { ItemChange(before: nil, after: $0) }))
    return store
}
