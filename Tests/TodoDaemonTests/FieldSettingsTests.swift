import Testing
import TodoModel
@testable import TodoDaemon

/// `field.NAME = …` lines in todod.conf: the fields they declare, and what
/// is wrong with one, by line.
@Suite struct FieldSettingsTests {
    @Test func fieldLinesDeclareFieldsInTheFilesOrder() throws {
        let text = """
            field.estimate = numeric "Estimate"   # hours
            reminder-hours = 3
            field.size = string "Size" S,M,L
            field.estimate = duration "Estimate"
            """
        let settings = try DaemonSettings().applying(fileText: text, path: "todod.conf")
        // A name declared twice: the later line wins, in its place.
        #expect(settings.userFields.map(\.name) == ["size", "estimate"])
        #expect(settings.userFields.last?.kind == .duration)
        #expect(settings.fields.declarations.map(\.name) == ["scheduled", "until", "depends", "parent", "size", "estimate"])
        #expect(settings.reminderHours == 3)
    }

    @Test(arguments: [
        ("field.estimate = number", "todod.conf line 1: field.estimate has the kind \"number\""),
        ("\nfield.until = date", "todod.conf line 2: field.until is already a field"), ("field.recur = date", "todod.conf line 1: field.recur is a word todod already uses"),
        ("field.sch = date", "todod.conf line 1: field.sch is already a field"),
        ("field.Est = numeric", "todod.conf line 1: field.Est is not a field name"),
        ("field. = numeric", "todod.conf line 1: field. is not a field name"),
    ])
    func aFieldThatCannotBeDeclaredSaysWhereAndWhat(text: String, message: String) {
        #expect {
            _ = try DaemonSettings().applying(fileText: text, path: "todod.conf")
        } throws: { error in
            (error as? DaemonSettings.Invalid)?.description.hasPrefix(message) == true
        }
    }
}
