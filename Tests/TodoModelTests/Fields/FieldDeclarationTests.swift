import Foundation
import Testing
import TodoModel

/// Declarations as todod.conf writes them, the catalog's rules for names,
/// and values read by kind.
@Suite struct FieldDeclarationTests {
    @Test func aDeclarationReadsItsKindLabelAndAllowedValues() throws {
        let estimate = try FieldDeclaration.userDefined(name: "estimate", declaredAs: "numeric \"Estimate (h)\"")
        #expect(estimate.kind == .number)
        #expect(estimate.label == "Estimate (h)")
        #expect(estimate.taskwarriorName == "estimate")
        #expect(estimate.icalendarName == "X-TODOD-ESTIMATE")
        let size = try FieldDeclaration.userDefined(name: "size", declaredAs: "string \"Size\" S, M ,L")
        #expect(size.allowedValues == ["S", "M", "L"])
        let reviewed = try FieldDeclaration.userDefined(name: "reviewed", declaredAs: "date")
        #expect(reviewed.kind == .date)
        #expect(reviewed.label == "Reviewed")
        #expect(try FieldDeclaration.userDefined(name: "effort", declaredAs: "duration").kind == .duration)
    }

    @Test(arguments: [
        ("estimate", "number", "has the kind \"number\"; write one of string, numeric, date, duration"),
        ("estimate", "numeric \"Estimate", "has a label with no closing quote"),
        ("estimate", "numeric \"E\" 1,2", "lists allowed values, which only a string field has"),
        ("Estimate", "numeric", "is not a field name"),
        ("due", "date", "is a word todod already uses"),
        ("size", "string \"S\" a b,c", "allowed values that are not single words"),
    ])
    func aDeclarationThatCannotBeUsedSaysWhy(name: String, text: String, expected: String) {
        #expect {
            _ = try FieldDeclaration.userDefined(name: name, declaredAs: text)
        } throws: { error in
            String(describing: error).hasPrefix("field.\(name) ") && String(describing: error).contains(expected)
        }
    }

    @Test func theCatalogRefusesANameTakenByABuiltInField() throws {
        let scheduled = FieldDeclaration(name: "sch", label: "S", kind: .text)
        #expect(throws: FieldDeclarationError.self) { try FieldCatalog(userDefined: [scheduled]) }
        let catalog = try FieldCatalog(userDefined: [FieldDeclaration(name: "estimate", label: "Estimate", kind: .number)])
        #expect(catalog.declaration(spelled: "SCH")?.name == "scheduled")
        #expect(catalog.declaration(spelled: "Estimate")?.kind == .number)
        #expect(catalog.userDefined.map(\.name) == ["estimate"])
        #expect(catalog.declarations.map(\.name) == ["scheduled", "until", "depends", "parent", "estimate"])
    }

    @Test func valuesAreReadByKindAndAllowedValues() throws {
        let size = FieldDeclaration(name: "size", label: "Size", kind: .text, allowedValues: ["S", "M", "L"])
        #expect(try size.value(of: "m", dates: nil) == .text("M"))
        #expect(throws: FieldValueError.self) { try size.value(of: "XL", dates: nil) }
        #expect(try FieldKind.number.value(of: "2.5", dates: nil) == .number(2.5))
        #expect(throws: FieldValueError.self) { try FieldKind.number.value(of: "lots", dates: nil) }
        #expect(throws: FieldValueError.self) { try FieldKind.number.value(of: "inf", dates: nil) }
        #expect(try FieldKind.duration.value(of: "1h30min", dates: nil) == .duration(5400))
        let dates = NaturalDateParser(now: Date(timeIntervalSince1970: 1_795_345_200), timeZone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(try FieldKind.date.value(of: "2026-12-24", dates: dates) == .date(.day(CalendarDay(year: 2026, month: 12, day: 24))))
        #expect(throws: FieldValueError.self) { try FieldKind.date.value(of: "someday soon", dates: dates) }
    }

    @Test(arguments: [
        ("2h", 7200), ("30min", 1800), ("1.5h", 5400), ("3d", 259_200), ("1w", 604_800), ("45s", 45),
        ("1h30min", 5400), ("PT2H30M", 9000), ("P3D", 259_200), ("P1DT2H", 93_600), ("P1W", 604_800), ("pt0s", 0),
    ])
    func durationsAreReadInBothForms(text: String, seconds: Int) {
        #expect(DurationText.seconds(of: text) == seconds)
    }

    @Test(arguments: ["", "2", "h", "2 h", "P", "PT", "P2H", "PT3D", "1y", "P1M", "-2h", "PT2H2", "99999w"])
    func whatIsNoDurationIsRefused(text: String) {
        #expect(DurationText.seconds(of: text) == nil)
    }

    @Test func durationsAreWrittenAsISO8601AndForPeople() {
        for seconds in [0, 45, 60, 5400, 86_400, 93_784, 604_800] {
            #expect(DurationText.seconds(of: DurationText.iso8601(seconds: seconds)) == seconds)
        }
        #expect(DurationText.iso8601(seconds: 9000) == "PT2H30M")
        #expect(DurationText.iso8601(seconds: 0) == "PT0S")
        #expect(DurationText.worded(seconds: 9000) == "2h 30min")
        #expect(DurationText.worded(seconds: 694_800) == "1w 1d 1h")
    }

    @Test func valuesKeepTheirKindThroughJSON() throws {
        let values: [String: FieldValue] = [
            "scheduled": .date(.day(CalendarDay(year: 2026, month: 12, day: 1))),
            "until": .date(.moment(Date(timeIntervalSince1970: 1_800_000_000))),
            "estimate": .number(2.5), "size": .text("2026-12-01"), "effort": .duration(5400),
        ]
        let item = TodoItem(id: TodoID(1), title: "t", createdAt: Date(timeIntervalSince1970: 0), values: values)
        let decoded = try JSONDecoder().decode(TodoItem.self, from: try JSONEncoder().encode(item))
        #expect(decoded.values == values)
        // An item without values writes no key for them.
        let plain = TodoItem(id: TodoID(2), title: "t", createdAt: Date(timeIntervalSince1970: 0))
        #expect(!String(decoding: try JSONEncoder().encode(plain), as: UTF8.self).contains("values"))
    }
}
