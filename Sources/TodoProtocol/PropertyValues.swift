import Foundation
import TodoViewModels

extension TodoListProperties {
    /// Every property's name, in the order the protocol lists them.
    public static let names = [
        "filter", "sort", "itemsLeft", "activeCount", "completedCount", "totalCount", "allDone",
        "canClearCompleted", "emptyText", "canUndo", "undoText", "canRedo", "redoText", "alerts", "alertCount",
    ]

    /// The named properties' values as JSON, built directly rather than by
    /// encoding and decoding the whole struct: this runs for every change.
    public func values(forKeys keys: [String]) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for key in keys {
            values[key] = value(forKey: key)
        }
        return values
    }

    func value(forKey key: String) -> JSONValue? {
        switch key {
        case "filter": .string(filter.rawValue)
        case "sort": .string(sort.rawValue)
        case "itemsLeft": .string(itemsLeft)
        case "activeCount": .integer(Int64(activeCount))
        case "completedCount": .integer(Int64(completedCount))
        case "totalCount": .integer(Int64(totalCount))
        case "allDone": .bool(allDone)
        case "canClearCompleted": .bool(canClearCompleted)
        case "emptyText": emptyText.map(JSONValue.string) ?? .null
        case "canUndo": .bool(canUndo)
        case "undoText": undoText.map(JSONValue.string) ?? .null
        case "canRedo": .bool(canRedo)
        case "redoText": redoText.map(JSONValue.string) ?? .null
        case "alerts":
            .array(
                alerts.map {
                    .object(["id": .integer($0.id), "condition": .string($0.condition.rawValue), "message": .string($0.message)])
                })
        case "alertCount": .integer(Int64(alertCount))
        default: nil
        }
    }
}
