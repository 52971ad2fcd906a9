import ArgumentParser
import CanonicalJSON
import FoundationEssentials
import Glibc
import TodoClient
import TodoProtocol
import TodoViewState

/// The items a bulk command acts on: ids (`3 4 7`), or a query
/// (`+errands`, `project:home and overdue`), as one argument list, or
/// `--all`.
///
/// All words that are item ids make an id list; anything else is read as
/// one query, by todod, with the query grammar every view uses. Either way
/// the command is sent as one `transaction`: all or nothing, one undo step.
///
/// An empty word is refused, never read as a query: to todod an empty
/// query matches every item, and `todoctl rm "$ID"` with `ID` unset must
/// not delete the list. Every item is chosen only on purpose, with
/// `--all` or a query that says so (`status:pending` for `done`).
struct ItemTargets: ParsableArguments {
    // `.allUnrecognized`: a query word like `-work` is not an option.
    @Argument(
        parsing: .allUnrecognized,
        help: "Item ids as `todoctl ls` shows them, or a query (+tag, project:x, overdue, …; see `todoctl help ls`).")
    var targets: [String] = []

    @Flag(help: "With a query: list the items it matches and change nothing.")
    var dryRun = false

    // No short name: `-y` is a query word (not tagged y).
    @Flag(name: .customLong("yes"), help: "With a query matching more than 5 items: do not ask first.")
    var yes = false

    // No short name: `-a` is a query word (not tagged a).
    @Flag(name: .customLong("all"), help: "Every item the command can act on (asks first, as a query does).")
    var all = false

    func validate() throws {
        if all && !targets.isEmpty { throw ValidationError("Give --all or item ids or a query, not both.") }
        if !all && targets.isEmpty { throw ValidationError("Name at least one item id, or a query; --all for every item.") }
        if dryRun && !all && ids != nil { throw ValidationError("--dry-run lists what a query matches; with ids, see them with `todoctl show ID`.") }
    }

    /// Why the words select nothing, if one of them is empty or blank;
    /// the message says how to mean every item a command with `filter`
    /// acts on.
    func blankSelectionProblem(filter: ListFilter, offersAll: Bool) -> String? {
        guard !all, targets.contains(where: { $0.allSatisfy(\.isWhitespace) }) else { return nil }
        let query =
            switch filter {
            case .active: "status:pending"
            case .completed: "status:completed"
            case .all: "status:all"
            }
        return "An empty item id or query selects nothing (an unset variable?). To act on every item on purpose, give "
            + (offersAll ? "--all or the query \(query)." : "the query \(query).")
    }

    /// The ids, when every word is one.
    var ids: [Int64]? {
        let ids = targets.compactMap { Int64($0) }
        return ids.count == targets.count ? ids : nil
    }

    /// How many matches a command changes without asking on a terminal.
    static let askAbove = 5

    /// Resolves the targets, asks when a query matches many items, and sends
    /// one transaction of `command(id)` for each. `filter` is the status a
    /// query is limited to unless it names a `status:` itself (`done` acts on
    /// active items, `undone` on completed ones). Prints each result with
    /// `describe`; exits as the refusal says (nothing changed then).
    ///
    /// `verb` is the action with its object left out ("mark done",
    /// "delete"): messages put the object in (`mark them done`).
    /// `offersAll`: the command has `--all` (`modify` has not).
    func run(
        on connection: ConnectionOptions, verb: String, filter: ListFilter, offersAll: Bool = true,
        command: @escaping @Sendable (Int64) throws -> Transaction.Command,
        describe: @escaping @Sendable (Transaction.Entry, Int64) -> String
    ) async throws {
        // Here, not in validate: the message depends on the command.
        if let problem = blankSelectionProblem(filter: filter, offersAll: offersAll) {
            ClientFailure.printError("todoctl: \(problem)")
            throw ExitCode.validationFailure
        }
        let (ids, dryRun, yes) = (all ? nil : ids, dryRun, yes)
        let query = all ? "" : targets.joined(separator: " ")
        let selection = all ? "--all selects" : "the query “\(query)” matches"
        try await withDaemon(connection) { daemon in
            var chosen = ids ?? []
            if ids == nil {
                // A query that names a status (status:completed) says itself which items it means.
                let queryFilter = query.lowercased().contains("status:") ? ListFilter.all : filter
                let matching = try await daemon.call(
                    GetListView.self, ViewSelection(own: true, filter: queryFilter, query: all ? nil : query)
                ).rows
                if matching.isEmpty {
                    ClientFailure.printError(
                        all ? "todoctl: there are no items to \(verb)" : "todoctl: no items match the query “\(query)”; nothing to \(verb)")
                    throw ExitCode(ClientFailure.notFound)
                }
                if dryRun {
                    print("would \(Self.phrase(verb, "\(matching.count) \(matching.count == 1 ? "item" : "items")")):")
                    matching.forEach { print(ListRendering.row($0)) }
                    return
                }
                if matching.count > Self.askAbove && !yes {
                    guard isatty(STDIN_FILENO) == 1 else {
                        ClientFailure.printError(
                            "todoctl: \(selection) \(matching.count) items; pass --yes to \(Self.phrase(verb, "them")) without a terminal, or --dry-run to see them")
                        throw ExitCode.validationFailure
                    }
                    let question = Self.phrase(verb, all ? "all \(matching.count) items" : "\(matching.count) items matching “\(query)”")
                    StandardStreams.write("\(question.prefix(1).uppercased() + question.dropFirst())? [y/N] ", to: STDERR_FILENO)
                    guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                        ClientFailure.printError("todoctl: nothing changed")
                        throw ExitCode.failure
                    }
                }
                if matching.count > Transaction.maximumCommands {
                    ClientFailure.printError(
                        "todoctl: \(selection) \(matching.count) items; one command changes at most \(Transaction.maximumCommands) (one undo step): \(all ? "select fewer with a query" : "narrow the query")")
                    throw ExitCode.validationFailure
                }
                chosen = matching.map(\.id)
            }
            let commands = try chosen.map(command)
            do {
                let result = try await daemon.call(Transaction.self, Transaction.Params(commands: commands))
                for (entry, id) in zip(result.results, chosen) { print(describe(entry, id)) }
            } catch ClientError.refused(var error) {
                if let index = error.data?.index, chosen.indices.contains(index) {
                    // The transaction is todoctl's doing, not the user's: name the item instead.
                    let prefix = "Command \(index) of the transaction: "
                    if error.message.hasPrefix(prefix) {
                        error.message = "Item \(chosen[index]): " + error.message.dropFirst(prefix.count)
                    } else {
                        error.message += " (item \(chosen[index]))"
                    }
                }
                throw ClientError.refused(error)
            }
        }
    }

    /// The verb with its object in place: "mark done" and "them" make
    /// "mark them done"; a one-word verb takes it after ("delete them").
    static func phrase(_ verb: String, _ object: String) -> String {
        let words = verb.split(separator: " ", maxSplits: 1)
        return ([String(words[0]), object] + words.dropFirst().map(String.init)).joined(separator: " ")
    }

    /// A transaction command for `method` with `params`.
    static func command<M: RPCMethod>(_ method: M.Type, _ params: M.Params) throws -> Transaction.Command {
        Transaction.Command(method: M.name, params: try JSONValue(encoding: params))
    }
}
