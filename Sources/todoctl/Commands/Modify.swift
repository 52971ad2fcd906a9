import ArgumentParser
import TodoProtocol

struct Modify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modify",
        abstract: "Change items with shorthand: todoctl modify 3 4 +home -work pri:L due:fri",
        discussion: """
            CHANGES: +tag adds a tag, -tag removes one, project:home.garden (pro:), priority:H|M|L (pri:), \
            due:DATE, wait:DATE, recur:weekly; an empty value (pri:) clears the field. Other words become \
            the new title. Dates: today, tomorrow, fri, next week, eom, in 3 days, 24 dec, 2026-12-24, \
            with an optional time (fri 18:00).

            Leading numbers are item ids (`todoctl modify 5 -- 2 eggs` retitles item 5 "2 eggs"); with \
            --query, the items the query matches (active ones unless it names a status). All items change \
            in one transaction: one undo step, all or nothing.
            """)

    @ParentCommand var todoctl: Todoctl

    // No short names: `-q` and `-y` are tag removals in the changes.
    @Option(name: .customLong("query"), help: "Change every active item this query matches instead of ids.")
    var query: String?

    @Flag(help: "With --query: list the items it matches and change nothing.")
    var dryRun = false

    @Flag(name: .customLong("yes"), help: "With --query matching more than 5 items: do not ask first.")
    var yes = false

    // `.allUnrecognized`: `-work` removes a tag; it is not an option.
    @Argument(parsing: .allUnrecognized, help: "Item ids, then the changes.")
    var words: [String] = []

    func validate() throws {
        let ids = words.prefix { Int64($0) != nil }
        if query == nil && ids.isEmpty { throw ValidationError("Name the items: todoctl modify ID... CHANGES, or --query QUERY CHANGES.") }
        if query != nil && !ids.isEmpty { throw ValidationError("Give item ids or --query, not both.") }
        if words.count == ids.count { throw ValidationError("Say what to change: +tag, -tag, pri:H, due:fri, … (see todoctl modify --help).") }
    }

    func run() async throws {
        let ids = words.prefix { Int64($0) != nil }
        let changes = Shorthand.joined(Array(words.dropFirst(ids.count)))
        var targets = ItemTargets()
        targets.targets = query.map { [$0] } ?? ids.map { String($0) }
        targets.dryRun = dryRun
        targets.yes = yes
        targets.all = false
        try await targets.run(
            on: todoctl.connection, verb: "modify", filter: .active, offersAll: false,
            command: { try ItemTargets.command(ModifyTodo.self, .init(id: $0, text: changes)) },
            describe: { entry, id in entry.item.map { ListRendering.row($0) } ?? "\(id)" })
    }
}

/// Shell words back into shorthand text.
enum Shorthand {
    /// The words joined by spaces. A word the shell kept whole although it
    /// holds spaces, `due:"tomorrow 9am"` or `scheduled:"next fri"` typed
    /// with quotes, gets its value quoted again so todod reads it as one
    /// value. Any key counts, a field todod.conf declares as well as the
    /// built-in ones (`estimate.above:…` in a query too): todoctl does not
    /// know the list's fields, and todod names a key that is no field. Any
    /// other word ("Re: budget review", "buy milk due:fri" typed as one
    /// word, a path after the colon) is left as typed.
    /// After a `--` word every word is title text, left as typed.
    static func joined(_ words: [String]) -> String {
        let literalFrom = words.firstIndex(of: "--") ?? words.endIndex
        return words.enumerated().map { index, word in
            guard index < literalFrom, word.contains(where: \.isWhitespace), let colon = word.firstIndex(of: ":"),
                isKey(word[..<colon]), !word.contains("\""),
                let first = word[word.index(after: colon)...].first, !first.isWhitespace, first != "/"
            else { return word }
            return word[...colon] + "\"" + word[word.index(after: colon)...] + "\""
        }.joined(separator: " ")
    }

    /// Letters, in dot-separated parts: `due`, `pri.above`.
    static func isKey(_ text: Substring) -> Bool {
        !text.isEmpty && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isLetter }
        }
    }
}
