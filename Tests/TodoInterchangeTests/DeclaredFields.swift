import Foundation
import TodoModel

@testable import TodoInterchange

/// Fields as todod.conf declares them, one of each kind, and an item with a
/// value in each, the built-in `scheduled` and `until`, and an orphan: a
/// value of `legacy`, whose declaration is gone.
enum DeclaredFields {
    static let declarations = [
        try! FieldDeclaration.userDefined(name: "size", declaredAs: #"string "Size" S,M,L"#),
        try! FieldDeclaration.userDefined(name: "area", declaredAs: "string"),
        try! FieldDeclaration.userDefined(name: "estimate", declaredAs: "numeric"),
        try! FieldDeclaration.userDefined(name: "reviewed", declaredAs: "date"),
        try! FieldDeclaration.userDefined(name: "effort", declaredAs: "duration"),
    ]
    static let catalog = try! FieldCatalog(userDefined: declarations)
    /// The catalog as it was while `legacy` was declared.
    static let withLegacy = try! FieldCatalog(
        userDefined: declarations + [try! FieldDeclaration.userDefined(name: "legacy", declaredAs: "duration")])

    static func day(_ year: Int, _ month: Int, _ day: Int) -> CalendarDay { CalendarDay(year: year, month: month, day: day) }

    /// A value of each declared field; `until` is a moment, the others' dates days.
    static let declaredValues: [String: FieldValue] = [
        "scheduled": .date(.day(day(2026, 12, 1))), "until": .date(.moment(utc(2027, 1, 31, 17))), "size": .text("M"),
        "area": .text("north"), "estimate": .number(3.5), "reviewed": .date(.day(day(2026, 11, 15))), "effort": .duration(5_400),
    ]
    /// With the orphan.
    static let values = declaredValues.merging(["legacy": .duration(600)]) { first, _ in first }

    static let item = TodoItem(
        id: TodoID(1), title: "Plan the trip", createdAt: utc(2026, 11, 20, 8), due: .day(day(2026, 12, 10)), values: values)

    static func export(_ items: [TodoItem], _ format: InterchangeFormat, fields: FieldCatalog = catalog) -> String {
        ExportDocument(format: format, listID: listID, timeZone: .berlin, now: noon, version: "test", fields: fields)
            .text(of: items, itemsBefore: 0, isLast: true)
    }

    /// `text` imported into `collection` as the list with `fields` would.
    static func plan(_ text: String, _ format: InterchangeFormat, into collection: TodoCollection, fields: FieldCatalog = catalog)
        throws -> ImportPlan
    {
        ImportPlan(
            try format.read(text, timeZone: .berlin, fields: fields), format: format, into: collection, listID: listID, at: noon,
            timeZone: .berlin)
    }

    /// The items `text` adds to an empty list.
    static func imported(_ text: String, _ format: InterchangeFormat, fields: FieldCatalog = catalog) throws -> [TodoItem] {
        var list = TodoCollection(items: [], nextID: TodoID(1))
        if let step = try plan(text, format, into: list, fields: fields).step { list.apply(step) }
        return list.items.sorted { $0.id < $1.id }
    }
}
