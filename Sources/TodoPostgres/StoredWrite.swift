import CanonicalJSON
import Foundation
import TodoModel
import TodoViewModels
import TodoViewState

/// A `ListWrite` as the change log keeps it: JSON that the database applies
/// itself (`todod_commit` reads the items, history move, views and reminders
/// out of it) and that every other instance reads back to apply in memory.
///
/// Dates are milliseconds since 1970, as the SQLite store keeps them. Values
/// a later version writes and this one does not know (a sort key, a filter,
/// a reminder condition) fall back as the SQLite store's do: to the default,
/// or left out.
struct StoredWrite: Codable {
    var changes: [ItemChange]
    /// `{"record": step}`, `"undo"`, `"redo"`, or absent.
    var history: History?
    var views: [String: View]
    var removedViews: [String]
    var fired: [Reminder]
    var desktop: [DesktopState]

    enum History: Codable {
        case record(UndoStep)
        /// A recorded step as read back: its description and origin, with
        /// its changes left in the text until undone (`write(fromJSON:)`).
        case recorded(description: String, origin: String?)
        case undo
        case redo

        private enum Keys: String, CodingKey { case record }
        private enum StepKeys: String, CodingKey { case description, origin }

        init(from decoder: any Decoder) throws {
            if let word = try? decoder.singleValueContainer().decode(String.self) {
                switch word {
                case "undo": self = .undo
                case "redo": self = .redo
                default:
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown history move \(word)"))
                }
                return
            }
            let step = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: StepKeys.self, forKey: .record)
            self = .recorded(
                description: try step.decode(String.self, forKey: .description), origin: try step.decodeIfPresent(String.self, forKey: .origin))
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .record(let step):
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(step, forKey: .record)
            case .recorded:
                // Only ever read back: a write is stored from its ListWrite.
                throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "a step read back without its changes"))
            case .undo:
                var container = encoder.singleValueContainer()
                try container.encode("undo")
            case .redo:
                var container = encoder.singleValueContainer()
                try container.encode("redo")
            }
        }
    }

    struct View: Codable {
        var filter: String
        var sort: String
        var query: String
        var grouping: String?

        var settings: ViewSettings {
            ViewSettings(
                filter: ListFilter(rawValue: filter) ?? .all, sort: (try? ListSort(parsing: sort)) ?? .created,
                query: query, grouping: grouping.flatMap(ListGrouping.init(rawValue:)))
        }
    }

    struct Reminder: Codable {
        var itemID: Int64
        var condition: String
    }

    struct DesktopState: Codable {
        var itemID: Int64
        var condition: String
        var snoozedUntil: Date?
        var dismissed: Bool
    }

    init(_ write: ListWrite) {
        changes = write.changes
        switch write.historyChange {
        case .record(let step)?: history = .record(step)
        case .undo?: history = .undo
        case .redo?: history = .redo
        case nil: history = nil
        }
        views = write.viewSettings.mapValues {
            View(filter: $0.filter.rawValue, sort: $0.sort.text, query: $0.query, grouping: $0.grouping?.rawValue)
        }
        removedViews = write.removedViews
        fired = write.firedReminders.map { Reminder(itemID: $0.itemID.rawValue, condition: $0.condition.rawValue) }
        desktop = write.desktopReminders.sorted { ($0.key.itemID, $0.key.condition.rawValue) < ($1.key.itemID, $1.key.condition.rawValue) }
            .map {
                DesktopState(
                    itemID: $0.key.itemID.rawValue, condition: $0.key.condition.rawValue, snoozedUntil: $0.value.snoozedUntil,
                    dismissed: $0.value.dismissed)
            }
    }

    /// The write, given the stored text it was read from (where a recorded
    /// step's changes are read when needed).
    private func listWrite(readFrom data: Data) -> ListWrite {
        var write = ListWrite(changes: changes)
        switch history {
        case .record(let step)?: write.historyChange = .record(step)
        case .recorded(let description, let origin)?:
            var step = UndoStep(description: description) {
                try Self.decoder.decode(RecordedChanges.self, from: data).history.record.changes
            }
            step.origin = origin
            write.historyChange = .record(step)
        case .undo?: write.historyChange = .undo
        case .redo?: write.historyChange = .redo
        case nil: break
        }
        write.viewSettings = views.mapValues(\.settings)
        write.removedViews = removedViews
        write.firedReminders = fired.compactMap { reminder in
            ReminderAlert.Condition(rawValue: reminder.condition).map { ReminderKey(itemID: TodoID(reminder.itemID), condition: $0) }
        }
        for state in desktop {
            guard let condition = ReminderAlert.Condition(rawValue: state.condition) else { continue }
            write.desktopReminders[ReminderKey(itemID: TodoID(state.itemID), condition: condition)] =
                DesktopReminderState(snoozedUntil: state.snoozedUntil, dismissed: state.dismissed)
        }
        return write
    }

    static let encoder = CanonicalJSONEncoder(datesAsMillisecondsSince1970: true)
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    static func json(_ write: ListWrite) throws -> String {
        String(decoding: try encoder.encode(StoredWrite(write)), as: UTF8.self)
    }

    /// The write `text` holds. A recorded step's changes (for an add, the
    /// item once more) are read when the step is undone, not now: every
    /// instance reads every other's writes, mostly while it holds the
    /// list's head lock and the others wait, and reading the item twice
    /// made a write cost 58 µs to read instead of 42.
    static func write(fromJSON text: String) throws -> ListWrite {
        let data = Data(text.utf8)
        return try decoder.decode(StoredWrite.self, from: data).listWrite(readFrom: data)
    }

    /// Just a recorded step's changes, out of a stored write.
    private struct RecordedChanges: Decodable {
        struct History: Decodable {
            struct Record: Decodable { var changes: [ItemChange] }
            var record: Record
        }
        var history: History
    }
}
