import Testing

@testable import TodoModel

/// The item's own fields' words come from `OwnField`: shorthand, queries
/// and the names a user-defined field may not take follow the table.
@Suite struct OwnFieldTests {
    @Test func everyShorthandSpellingSetsItsField() throws {
        for field in OwnField.all where field.isShorthandKey {
            for spelling in field.spellings {
                let value = field.field == .priority ? "H" : field.field == .project ? "home" : field.field == .recurrence ? "weekly" : "fri"
                let shorthand = try Shorthand.parse("x \(spelling.uppercased()):\(value)", for: .add)
                #expect(shorthand.changes.map(\.fieldName) == [field.name], "\(spelling)")
                #expect(shorthand.words == [ShorthandWord("\(spelling.uppercased()):\(value)", at: 2)])
            }
        }
        // Not a shorthand key: refused as a field that is not there.
        #expect(throws: ShorthandError.self) { try Shorthand.parse("x title:y", for: .add) }
    }

    @Test func everyQueryKeyAndComparisonIsReadWithEachSpelling() {
        for field in OwnField.all where field.isQueryKey {
            for spelling in field.spellings {
                #expect(QueryKey(spelling: spelling) != nil, "\(spelling)")
                for comparison in field.queryComparisons {
                    #expect(QueryKey(spelling: spelling + "." + comparison) != nil, "\(spelling).\(comparison)")
                }
            }
        }
        #expect(QueryKey(spelling: "due.above") == nil)
    }

    @Test func aUserDefinedFieldCannotTakeAnOwnFieldsNameOrFormatName() {
        for field in OwnField.all {
            for name in field.spellings + field.taskwarriorNames + field.todoTxtKeys where FieldCatalog.problem(withName: name) == nil {
                Issue.record("\(name) could name a user-defined field")
            }
        }
        #expect(FieldCatalog.problem(withName: "estimate") == nil)
    }

    /// Pinned: a name leaving this set would let a user-defined field (or a
    /// sort) take a word todod uses.
    @Test func theReservedNamesAreExactlyThese() {
        #expect(
            FieldCatalog.reservedNames == [
                "title", "done", "due", "tags", "tag", "project", "pro", "priority", "pri", "notes", "note", "wait", "recur",
                "recurrence", "status", "created", "modified", "urgency", "id", "uuid", "entry", "end", "description",
                "depends", "parent", "values", "ready", "blocked", "blocking", "overdue", "recurring", "and", "or", "not", "none",
                "t", "rec", "annotations", "mask", "imask", "rtype", "todod_recur",
            ])
    }
}
