import Foundation
import TodoProtocol
import TodoViewState

/// `json-value-bench`: what turning view-model property values into the
/// `JSONValue`s a state or an event carries costs, and whether
/// `JSONValueDecoder`, which reads them back on a client without JSON text,
/// earns its place against writing the `JSONValue` as text and reading it
/// with Foundation's `JSONDecoder`, as every other incoming line is read.
///
/// The values are made through text (`JSONValue(encoding:)`). An encoder
/// straight into a `JSONValue` (`JSONValueEncoder`) was measured here against
/// that and was no faster (docs/performance.md, "JSONValue coding"), so it went.
///
/// Measured on the list view model's properties of an organised list (30
/// tags, 12 projects, 20 alerts, 5 desktop reminders): every property, as
/// a snapshot or a subscription's state carries them, and the six an edit
/// typically changes, as an event carries them. Median of 41 rounds.
///
/// Build and run in release mode:
/// `swift build --package-path Benchmarks -c release --product json-value-bench && Benchmarks/.build/release/json-value-bench`
@main
struct JSONValueBenchmark {
    static func main() throws {
        let model = organisedProperties()
        let all = TodoListProperties.names
        let edit = ["itemsLeft", "activeCount", "totalCount", "tagCounts", "canUndo", "undoText"]
        for (label, names) in [("all \(all.count) properties", all), ("an edit's \(edit.count) properties", edit)] {
            let encoding = time { model.values(forKeys: names) }
            print("encode \(label): \(figure(encoding)) µs")
        }
        let allValues = model.values(forKeys: all)
        let editValues = model.values(forKeys: edit)
        let directAll = time { try! TodoListProperties(wireValues: allValues) }
        let viaTextAll = time { try! JSONDecoder().decode(TodoListProperties.self, from: MessageEncoding.json(JSONValue.object(allValues))) }
        report("decode all \(all.count) properties", directAll, viaTextAll)
        let directEdit = time { () -> TodoListProperties in
            var copy = TodoListProperties()
            try! copy.apply(editValues)
            return copy
        }
        let viaTextEdit = time { () -> TodoListProperties in
            var copy = TodoListProperties()
            try! applyThroughText(editValues, to: &copy)
            return copy
        }
        report("apply an edit's \(edit.count) properties", directEdit, viaTextEdit)
    }

    /// The way without `JSONValueDecoder`: each value as JSON text, read by `JSONDecoder`.
    static func applyThroughText(
        _ values: [String: JSONValue], to model: inout TodoListProperties
    ) throws {
        for property in TodoListProperties.declarations {
            guard let value = values[property.name] else { continue }
            let decoder = JSONDecoder()
            let target = Target(model: model, property: property)
            decoder.userInfo[Target.key] = target
            _ = try decoder.decode(PropertyReader.self, from: MessageEncoding.json(value))
            model = target.model
        }
    }

    static func organisedProperties() -> TodoListProperties {
        let tags = (1...30).map { NameCount(name: "tag\($0)", count: $0 * 7) }
        let projects = (1...12).map { NameCount(name: "project\($0).part", count: $0 * 13) }
        let alerts = (1...20).map { ReminderAlert(id: Int64($0), condition: .overdue, message: "“pay invoice \($0)” is overdue by 2 days") }
        let reminders = (1...5).map {
            DesktopReminder(id: Int64($0), condition: .overdue, summary: "pay invoice \($0)", body: "overdue by 2 days", urgency: .critical)
        }
        return TodoListProperties(
            filter: .active, query: "+work project:office", sort: .due, grouping: .project, itemsLeft: "412 items left",
            activeCount: 412, completedCount: 1_280, totalCount: 1_692, overdueCount: 20, overdueText: "20 overdue",
            dueTodayCount: 3, dueTodayText: "3 due today", tagCounts: tags, projectCounts: projects, allDone: false,
            canClearCompleted: true, emptyText: nil, canUndo: true, undoText: "Undo add “buy milk”", canRedo: false,
            redoText: nil, alerts: alerts, alertCount: 20, desktopReminders: reminders)
    }

    /// The median time of one call, in microseconds, over 41 rounds of enough calls to take about 20 ms.
    static func time<T>(_ body: () -> T) -> Double {
        var calls = 1
        while true {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<calls { blackHole(body()) }
            if DispatchTime.now().uptimeNanoseconds - start > 20_000_000 { break }
            calls *= 2
        }
        var rounds: [Double] = []
        for _ in 0..<41 {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<calls { blackHole(body()) }
            rounds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(calls) / 1_000)
        }
        return rounds.sorted()[rounds.count / 2]
    }

    static func report(_ label: String, _ direct: Double, _ viaText: Double) {
        let line = "\(label): JSONValueDecoder \(figure(direct)) µs, through text \(figure(viaText)) µs"
        print(line + String(format: " (%.1f× faster)", viaText / direct))
    }

    static func figure(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
}

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Where `PropertyReader` puts the value it reads.
final class Target: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "target")!
    var model: TodoListProperties
    let property: ViewModelProperty<TodoListProperties>
    init(model: TodoListProperties, property: ViewModelProperty<TodoListProperties>) {
        self.model = model
        self.property = property
    }
}

/// Reads one property's value through whatever decoder it is handed.
struct PropertyReader: Decodable {
    init(from decoder: any Decoder) throws {
        let target = decoder.userInfo[Target.key] as! Target
        try target.property.decodeValue(from: decoder, into: &target.model)
    }
}
