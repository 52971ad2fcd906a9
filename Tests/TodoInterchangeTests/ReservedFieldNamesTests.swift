import Testing
import TodoModel

/// A user-defined field's name is its Taskwarrior attribute and its
/// todo.txt key, so it may not be one a format already gives the item's
/// own fields: the value would be read back as that field.
@Suite struct ReservedFieldNamesTests {
    @Test(arguments: ["t", "rec", "annotations", "mask", "imask", "rtype"])
    func aFormatsOwnKeyIsNoFieldName(name: String) {
        #expect(throws: FieldDeclarationError(name: name, message: "is a word todod already uses")) {
            try FieldDeclaration.userDefined(name: name, declaredAs: "string")
        }
    }
}
