import Foundation
import TodoModel
import TodoViewModels
import TodoViewState

/// The order a view's rows must be in, worked out from the items by the
/// rules `ListSort` documents: each key in its usual direction (or
/// reversed), items without a due date, priority, project or field value
/// last either way, grouped first by project when the view groups, and ties by id.
///
/// The view model keeps each view's order by placing one changed row at a
/// time; this is the order from scratch that placing must always give.
struct ExpectedOrder {
    let definition: ViewDefinition
    let timeZone: TimeZone
    /// Today's day number: urgency counts days from it.
    let today: Int

    func precedes(_ lhs: TodoItem, _ rhs: TodoItem) -> Bool {
        if definition.grouping == .project {
            let order = Self.missingLast(lhs.project.map(Self.folded), rhs.project.map(Self.folded), reversed: false)
            if order != 0 { return order < 0 }
            let written = Self.missingLast(lhs.project, rhs.project, reversed: false)
            if written != 0 { return written < 0 }
        }
        for key in definition.sort.keys {
            let order = compare(lhs, rhs, by: key)
            if order != 0 { return order < 0 }
        }
        return lhs.id < rhs.id
    }

    private func compare(_ lhs: TodoItem, _ rhs: TodoItem, by key: ListSort.Key) -> Int {
        let sign = key.reversed ? -1 : 1
        switch key.field {
        case .created: return sign * Self.threeWay(lhs.createdAt, rhs.createdAt)
        case .modified: return sign * Self.threeWay(lhs.updatedAt, rhs.updatedAt)
        case .title: return sign * NaturalOrder.compare(lhs.title, rhs.title)
        case .due:
            return Self.missingLast(lhs.due?.sortInstant(in: timeZone), rhs.due?.sortInstant(in: timeZone), reversed: key.reversed)
        case .priority:
            // Highest first: L < M < H, so the usual direction is descending.
            return Self.missingLast(lhs.priority, rhs.priority, reversed: !key.reversed)
        case .project: return Self.missingLast(lhs.project.map(Self.folded), rhs.project.map(Self.folded), reversed: key.reversed)
        case .urgency: return sign * Self.threeWay(urgency(of: rhs), urgency(of: lhs))
        case .declared(let name):
            return Self.missingLast(fieldOrder(lhs.values[name]), fieldOrder(rhs.values[name]), reversed: key.reversed)
        }
    }

    /// A field's value as it sorts: dates by when they begin, numbers and
    /// durations by size, and after all of those text A to Z ignoring case and accents.
    private func fieldOrder(_ value: FieldValue?) -> FieldOrder? {
        switch value {
        case nil: nil
        case .number(let number)?: FieldOrder(number: number)
        case .duration(let seconds)?: FieldOrder(number: Double(seconds))
        case .date(let date)?: FieldOrder(number: date.sortInstant(in: timeZone).timeIntervalSinceReferenceDate)
        case .text(let text)?: FieldOrder(text: Self.folded(text))
        case .items(let ids)?: ids.first.map { FieldOrder(number: Double($0.rawValue)) }
        }
    }

    private struct FieldOrder: Comparable {
        var number: Double?
        var text: String?

        static func < (lhs: Self, rhs: Self) -> Bool {
            switch (lhs.number, rhs.number) {
            case let (left?, right?): left < right
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.text! < rhs.text!
            }
        }
    }

    private func urgency(of item: TodoItem) -> Double {
        Urgency.score(of: item, today: today, timeZone: timeZone)
    }

    /// Case, accents and width ignored, as the project order compares.
    private static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    private static func threeWay<T: Comparable>(_ lhs: T, _ rhs: T) -> Int {
        lhs < rhs ? -1 : (rhs < lhs ? 1 : 0)
    }

    /// Ascending (descending when `reversed`), missing values last either way.
    private static func missingLast<T: Comparable>(_ lhs: T?, _ rhs: T?, reversed: Bool) -> Int {
        switch (lhs, rhs) {
        case let (left?, right?): return (reversed ? -1 : 1) * threeWay(left, right)
        case (.some, nil): return -1
        case (nil, .some): return 1
        case (nil, nil): return 0
        }
    }
}
