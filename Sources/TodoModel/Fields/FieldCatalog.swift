/// The fields declared for a list: the built-in ones, then those todod.conf
/// declares. The view model, the shorthand and query readers, and the
/// interchange formats are all given the one catalog; SIGHUP replaces it.
public struct FieldCatalog: Hashable, Sendable {
    /// In the order `todoctl show` lists them.
    public let declarations: [FieldDeclaration]
    private let bySpelling: [String: FieldDeclaration]

    /// The fields every list has. A new built-in field is added here.
    public static let builtIn = FieldCatalog(checked: [.scheduled, .until, .depends, .parent])

    /// Names a user-defined field may not take: the item's own fields'
    /// spellings (`OwnField`), and the names the interchange formats give
    /// them and the item (a user-defined field's name is its Taskwarrior
    /// attribute and its todo.txt key: Taskwarrior's `annotations`, todo.txt's
    /// `rec`); the words of queries and sorts; `depends` (a sort may not name
    /// it, as it may not name `parent`); and todo.txt's `t`, which is
    /// `scheduled`'s there.
    public static let reservedNames: Set<String> = Set(
        OwnField.all.flatMap { $0.spellings + $0.taskwarriorNames + $0.todoTxtKeys } + OwnField.taskwarriorItemNames
            + [
                "status", "created", "modified", "values", "ready", "blocked", "blocking", "overdue", "recurring", "and", "or",
                "not", "none", "t", "depends",
            ])

    private init(checked declarations: [FieldDeclaration]) {
        self.declarations = declarations
        var bySpelling: [String: FieldDeclaration] = [:]
        for declaration in declarations {
            for spelling in declaration.spellings { bySpelling[spelling] = declaration }
        }
        self.bySpelling = bySpelling
    }

    /// The built-in fields and `userDefined`, refused when a name is taken.
    public init(userDefined: [FieldDeclaration]) throws(FieldDeclarationError) {
        var all = Self.builtIn.declarations
        for declaration in userDefined {
            if let problem = Self.problem(withName: declaration.name) {
                throw FieldDeclarationError(name: declaration.name, message: problem)
            }
            if all.contains(where: { $0.spellings.contains(declaration.name) }) {
                throw FieldDeclarationError(name: declaration.name, message: "is already a field")
            }
            all.append(declaration)
        }
        self.init(checked: all)
    }

    /// Why `name` cannot name a user-defined field, or nil.
    public static func problem(withName name: String) -> String? {
        guard !name.isEmpty, name.count <= 32, name.allSatisfy({ $0.isASCII && $0.isLowercase && $0.isLetter }) else {
            return "is not a field name: use 1 to 32 lowercase letters a to z"
        }
        if reservedNames.contains(name) { return "is a word todod already uses" }
        return nil
    }

    /// The field spelled `spelling` (its name or an alias), ignoring case.
    public func declaration(spelled spelling: some StringProtocol) -> FieldDeclaration? {
        bySpelling[spelling.lowercased()]
    }

    /// The field named `name`, whatever its spelling.
    public subscript(name: String) -> FieldDeclaration? { bySpelling[name] }

    /// `values` in the order rows, `show` and exports list them, each with
    /// its field: the declared fields in the catalog's order, then the
    /// orphans (whose declaration is gone: no field) by name.
    public func ordered(_ values: [String: FieldValue]) -> [(name: String, field: FieldDeclaration?, value: FieldValue)] {
        guard !values.isEmpty else { return [] }
        var ordered: [(name: String, field: FieldDeclaration?, value: FieldValue)] = []
        for field in declarations {
            if let value = values[field.name] { ordered.append((field.name, field, value)) }
        }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where self[name]?.name != name {
            ordered.append((name, nil, value))
        }
        return ordered
    }

    /// Only those todod.conf declared.
    public var userDefined: [FieldDeclaration] { declarations.filter { !$0.isBuiltIn } }
}

/// A field todod.conf declares that cannot be used.
public struct FieldDeclarationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "field.\(name) \(message)" }
}
