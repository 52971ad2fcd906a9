import ArgumentParser
import FoundationEssentials
import Glibc
import TodoClient
import TodoProtocol
import TodoViewModels

/// The items a bulk command acts on: ids (`3 4 7`), or a query
/// (`+errands`, `project:home and overdue`), as one argument list.
///
/// All words that are item ids make an id list; anything else is read as
/// one query, by todod, with the query grammar every view uses. Either way
/// the command is sent as one `transaction`: all or nothing, one undo step.
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

    func validate() throws {
        if targets.isEmpty { throw ValidationError("Name at least one item id, or a query.") }
        if dryRun && ids != nil { throw ValidationError("--dry-run lists what a query matches; with ids, see them with `todoctl show ID`.") }
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
    func run(
        on connection: ConnectionOptions, verb: String, filter: ListFilter,
        command: @escaping @Sendable (Int64) throws -> Transaction.Command,
        describe: @escaping @Sendable (Transaction.Entry, Int64) -> String
    ) async throws {
        let (ids, dryRun, yes) = (ids, dryRun, yes)
        let query = targets.joined(separator: " ")
        try await withDaemon(connection) { daemon in
            var chosen = ids ?? []
            if ids == nil {
                // A query that names a status (status:completed) says itself which items it means.
                let queryFilter = query.lowercased().contains("status:") ? ListFilter.all : filter
                let matching = try await daemon.call(
                    GetListView.self, ViewSelection(own: true, filter: queryFilter, query: query)
                ).rows
                if matching.isEmpty {
                    ClientFailure.printError("todoctl: no items match \(query); nothing to \(verb)")
                    throw ExitCode(ClientFailure.notFound)
                }
                if dryRun {
                    print("\(verb) would change \(matching.count) \(matching.count == 1 ? "item" : "items"):")
                    matching.forEach { print(ListRendering.row($0)) }
                    return
                }
                if matching.count > Self.askAbove && !yes {
                    guard isatty(STDIN_FILENO) == 1 else {
                        ClientFailure.printError(
                            "todoctl: \(query) matches \(matching.count) items; pass --yes to \(verb) them without a terminal, or --dry-run to see them")
                        throw ExitCode.validationFailure
                    }
                    StandardStreams.write("\(verb.capitalized) \(matching.count) items matching \(query)? [y/N] ", to: STDERR_FILENO)
                    guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                        ClientFailure.printError("todoctl: nothing changed")
                        throw ExitCode.failure
                    }
                }
                if matching.count > Transaction.maximumCommands {
                    ClientFailure.printError(
                        "todoctl: \(query) matches \(matching.count) items; one command changes at most \(Transaction.maximumCommands) (one undo step): narrow the query")
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
                    error.message += " (item \(chosen[index]))"
                }
                throw ClientError.refused(error)
            }
        }
    }

    /// A transaction command for `method` with `params`.
    static func command<M: RPCMethod>(_ method: M.Type, _ params: M.Params) throws -> Transaction.Command {
        Transaction.Command(method: M.name, params: try JSONValueEncoder.encode(params))
    }
}
