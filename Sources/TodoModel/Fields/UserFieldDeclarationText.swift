extension FieldDeclaration {
    /// Reads the value of a todod.conf line `field.NAME = KIND "Label" [VALUES]`:
    ///
    ///     field.estimate = numeric "Estimate"
    ///     field.size = string "T-shirt size" S,M,L,XL
    ///     field.reviewed = date
    ///     field.effort = duration "Effort"
    ///
    /// The kind is one of string, numeric, date and duration (Taskwarrior's
    /// UDA types). The label defaults to the name; allowed values, comma
    /// separated, are for strings only.
    public static func userDefined(name: String, declaredAs text: String) throws(FieldDeclarationError) -> FieldDeclaration {
        if let problem = FieldCatalog.problem(withName: name) { throw FieldDeclarationError(name: name, message: problem) }
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" }
        let kindWord = rest.prefix { $0 != " " && $0 != "\t" }
        rest = rest.dropFirst(kindWord.count).drop { $0 == " " || $0 == "\t" }
        guard let kind = FieldKind(rawValue: kindWord.lowercased()), FieldKind.declarable.contains(kind) else {
            let kinds = FieldKind.declarable.map(\.rawValue).joined(separator: ", ")
            throw FieldDeclarationError(
                name: name, message: "has the kind \"\(kindWord)\"; write one of \(kinds), as in field.\(name) = numeric \"Label\"")
        }
        var label = name.prefix(1).uppercased() + name.dropFirst()
        if rest.first == "\"" {
            guard let closing = rest.dropFirst().firstIndex(of: "\"") else {
                throw FieldDeclarationError(name: name, message: "has a label with no closing quote")
            }
            label = String(rest[rest.index(after: rest.startIndex)..<closing])
            guard !label.isEmpty, label.count <= 40, !label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw FieldDeclarationError(name: name, message: "needs a label of 1 to 40 printable characters")
            }
            rest = rest[rest.index(after: closing)...].drop { $0 == " " || $0 == "\t" }
        }
        var allowed: [String] = []
        if !rest.isEmpty {
            guard kind == .text else {
                throw FieldDeclarationError(name: name, message: "lists allowed values, which only a string field has")
            }
            allowed = rest.split(separator: ",").map { String($0).trimmingWhitespace() }
            guard allowed.allSatisfy({ !$0.isEmpty && !$0.contains(" ") && !$0.contains("\"") }) else {
                throw FieldDeclarationError(
                    name: name, message: "has allowed values that are not single words separated by commas (S,M,L)")
            }
        }
        return FieldDeclaration(name: name, label: label, kind: kind, allowedValues: allowed)
    }
}
