import Foundation
import Testing
import TodoModel

/// Declared fields in add/modify shorthand: read by kind, checked with a
/// position, and an undeclared key refused rather than put in the title.
@Suite struct ShorthandFieldTests {
    let catalog = try! FieldCatalog(userDefined: [
        FieldDeclaration(name: "estimate", label: "Estimate", kind: .number),
        FieldDeclaration(name: "size", label: "Size", kind: .text, allowedValues: ["S", "M", "L"]),
    ])

    @Test func declaredFieldsAreChangesNotTitleText() throws {
        let shorthand = try Shorthand.parse("plan trip sch:mon until:\"fri 18:00\" estimate:3 size:m", for: .add, fields: catalog)
        #expect(shorthand.title == "plan trip")
        #expect(
            shorthand.changes == [
                .setValue(.scheduled, "mon"), .setValue(.until, "fri 18:00"),
                .setValue(catalog["estimate"]!, "3"), .setValue(catalog["size"]!, "m"),
            ])
    }

    @Test func anEmptyValueClearsInModifyAndIsRefusedInAdd() throws {
        #expect(try Shorthand.parse("estimate:", for: .modify, fields: catalog).changes == [.setValue(catalog["estimate"]!, nil)])
        #expect(throws: ShorthandError.self) { try Shorthand.parse("x estimate:", for: .add, fields: catalog) }
    }

    @Test func aValueThatDoesNotFitSaysWhereAndWhy() {
        do {
            _ = try Shorthand.parse("plan estimate:lots", for: .add, fields: catalog)
            Issue.record("estimate:lots was read")
        } catch {
            #expect(error.position == 14)
            #expect(error.description == "at 14: \"lots\" is not a number such as 3 or 2.5 (the field estimate)")
        }
        do {
            _ = try Shorthand.parse("plan size:XL", for: .add, fields: catalog)
            Issue.record("size:XL was read")
        } catch {
            #expect(error.position == 10)
            #expect(error.description.contains("one of S, M, L for size"))
        }
        #expect(throws: ShorthandError.self) { try Shorthand.parse("plan sch:whenever", for: .add, fields: catalog) }
    }

    @Test func anUndeclaredFieldIsRefusedNamingIt() {
        do {
            _ = try Shorthand.parse("plan estmate:3", for: .add, fields: catalog)
            Issue.record("estmate:3 was read")
        } catch {
            #expect(error.position == 5)
            #expect(error.reason == .undeclaredField("estmate"))
            #expect(error.description.contains("there is no field \"estmate\"; declare it in todod.conf"))
        }
    }

    @Test func anUndeclaredKeyTodoCannotDeclareIsNotSuggested() {
        do {
            _ = try Shorthand.parse("call bob note:budget", for: .add, fields: catalog)
            Issue.record("note:budget was read")
        } catch {
            #expect(!error.description.contains("declare it"), "\(error)")
            #expect(error.description.contains("write it after \"--\""), "\(error)")
        }
    }

    @Test(arguments: ["owner:\"a\u{1B}]52;c;x\u{07}\"", "owner:\"\u{9B}31m\"", "owner:" + String(repeating: "x", count: 1_001)])
    func aTextValueIsOneBoundedLineWithoutControlCharacters(word: String) {
        let owner = try! FieldCatalog(userDefined: [FieldDeclaration(name: "owner", label: "Owner", kind: .text)])
        #expect(throws: ShorthandError.self) { try Shorthand.parse("plan " + word, for: .add, fields: owner) }
    }

    @Test func numbersAreReadInTheFormTheyAreWordedIn() throws {
        #expect(try FieldKind.number.value(of: "1e+20", dates: nil) == .number(1e20))
        #expect(try FieldKind.number.value(of: "-2.5E-3", dates: nil) == .number(-0.0025))
        for text in ["inf", "nan", "0x10", "1_000", "infinity"] {
            #expect(throws: FieldValueError.self) { try FieldKind.number.value(of: text, dates: nil) }
        }
    }

    @Test(arguments: ["meet at 10:30", "read https://example.com", "note: call back", "a-b:c", "x:/tmp", "-- estmate:3"])
    func wordsWithColonsThatAreNoFieldStayInTheTitle(text: String) throws {
        let shorthand = try Shorthand.parse(text, for: .add, fields: catalog)
        #expect(shorthand.changes.isEmpty)
        #expect(shorthand.title == text.replacingOccurrences(of: "-- ", with: ""))
    }
}
