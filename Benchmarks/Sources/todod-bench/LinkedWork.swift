import BenchmarkSupport
import Foundation
import TodoModel
import TodoProtocol
import TodoViewModels

/// The "linked" scenario: the organised list (`OrganisedWork`) with a fifth
/// of its items in subtask trees and dependency chains, and the same ten
/// named views, which now show the trees. It measures what issue 29 names:
/// a median edit (≤ 0.05 ms) over the whole list and over the linked items
/// alone (edits that move subtrees, unblock chains and complete whole
/// trees), and opening a tree view (≤ 100 ms).
///
/// Trees have five items (a root, two children, a grandchild under each);
/// chains four (each depends on the one before). A tree shares its root's
/// done state, as the list keeps it (a done parent has no open subtask).
struct LinkedWork {
    let count: Int
    let now: Date
    let clock: TodoClock
    let report: Report

    /// The organised items, one in ten in a tree and one in ten in a chain.
    static func items(count: Int, now: Date, timeZone: TimeZone) -> (items: [TodoItem], trees: [[TodoID]], chains: [[TodoID]]) {
        var items = OrganisedWork.items(count: count, now: now, timeZone: timeZone)
        let treeIDs = items.indices.filter { $0 % 10 == 0 }
        let chainIDs = items.indices.filter { $0 % 10 == 1 }
        var trees: [[TodoID]] = []
        for start in stride(from: 0, to: treeIDs.count - 4, by: 5) {
            let members = Array(treeIDs[start..<start + 5])
            let (root, first, second) = (members[0], members[1], members[2])
            let parents = [first: root, second: root, members[3]: first, members[4]: second]
            for (child, parent) in parents { items[child].values["parent"] = .items([items[parent].id]) }
            for member in members.dropFirst() {
                items[member].isDone = items[root].isDone
                items[member].completedAt = items[root].completedAt
            }
            trees.append(members.map { items[$0].id })
        }
        var chains: [[TodoID]] = []
        for start in stride(from: 0, to: chainIDs.count - 3, by: 4) {
            let members = Array(chainIDs[start..<start + 4])
            for (previous, next) in zip(members, members.dropFirst()) {
                items[next].values["depends"] = .items([items[previous].id])
            }
            chains.append(members.map { items[$0].id })
        }
        return (items, trees, chains)
    }

    func run() throws {
        let (items, trees, chains) = Self.items(count: count, now: now, timeZone: clock.timeZone)
        let linked = trees.joined().count + chains.joined().count
        report.section(
            "linked work: \(count) organised items, \(linked) of them in \(trees.count) subtask trees and \(chains.count) dependency chains; 10 named views + main, all trees")
        let (viewModel, setupTime) = try measure { try OrganisedWork.viewModel(items, clock: clock) }
        report.say("build the view model and save the 10 named views", setupTime, "ms")

        // "A median edit": the organised scenario's edits of random items,
        // now on a list a fifth of which is linked.
        // The anchor, in the same run: the same edits on the same list
        // without its links, each kind in turn with the linked list's.
        let unlinkedItems = OrganisedWork.items(count: count, now: now, timeZone: clock.timeZone)
        let unlinked = try EditRun(
            viewModel: try OrganisedWork.viewModel(unlinkedItems, clock: clock), items: unlinkedItems, edits: OrganisedWork.edits
        ).run()
        let plain = try EditRun(viewModel: viewModel, items: items, edits: OrganisedWork.edits).run()
        report.section("the organised edits of random items, on the list with trees, 11 views (median and p99 of \(OrganisedWork.edits) each)")
        report.note(EditRun.Kind.allCases.map { "\($0.label): \($0.command)" }.joined(separator: "; "))
        for kind in EditRun.Kind.allCases {
            let anchor = (name: "no links", value: percentile(unlinked.times[kind]!, 0.5))
            report.compare(
                "\(kind.label): median", percentile(plain.times[kind]!, 0.5), "ms", anchor: anchor, goal: .atMost(0.05),
                figure: "one edit of a random item, list with trees, \(kind.command): median")
        }
        let allPlain = EditRun.Kind.allCases.flatMap { plain.times[$0]! }
        let allUnlinked = EditRun.Kind.allCases.flatMap { unlinked.times[$0]! }
        report.compare(
            "any of them: median", percentile(allPlain, 0.5), "ms", anchor: (name: "no links", value: percentile(allUnlinked, 0.5)),
            goal: .atMost(0.05),
            figure: "one edit of a random item, list with trees, any kind: median")

        // On a list as it began: the edits above removed items at random.
        let fresh = try OrganisedWork.viewModel(items, clock: clock)
        let figures = try LinkedEditRun(viewModel: fresh, trees: trees, chains: chains, all: items.map(\.id), edits: 1_000).run()
        report.section(
            "edits that reach beyond one item, \(count) items with trees, 11 views (median and p99 of 1,000 each; no target: a cascade changes up to five items)")
        report.note(LinkedEditRun.Kind.allCases.map { "\($0.label): \($0.command)" }.joined(separator: "; "))
        for kind in LinkedEditRun.Kind.allCases {
            let times = figures[kind]!
            report.compare(
                "\(kind.label): median", percentile(times, 0.5), "ms", anchor: nil, goal: nil,
                figure: "one edit with trees, \(kind.label): median")
            report.compare(
                "\(kind.label): p99", percentile(times, 0.99), "ms", anchor: nil, goal: nil,
                figure: "one edit with trees, \(kind.label): p99")
        }
        let every = LinkedEditRun.Kind.allCases.flatMap { figures[$0]! }
        report.compare(
            "any edit above: median", percentile(every, 0.5), "ms", anchor: nil, goal: nil,
            figure: "one edit with trees, any kind: median")

        report.section("open a new own tree view of \(count) items (median of 7, each closed after)")
        let openings: [(String, ViewDefinition)] = [
            ("every item as trees, by title", try OrganisedWork.definition("", "title", .all)),
            ("active as trees, urgency", try OrganisedWork.definition("", "urgency", .active)),
            ("query +work with the paths to it", try OrganisedWork.definition("+work", "priority,due-", .active)),
            ("blocked", try OrganisedWork.definition("blocked", "urgency", .active)),
        ]
        report.note("anchor: the same view opened flat (no tree, no path rows), in turns with the tree view")
        for (index, (label, definition)) in openings.enumerated() {
            var times: [Double] = []
            var flatTimes: [Double] = []
            var rows = 0
            var paths = 0
            var flat = definition
            flat.flat = true
            for run in 0..<7 {
                let id = ViewID.own(2000 + index * 10 + run)
                let (state, time) = try measure { try viewModel.openView(id, definition: definition) }
                rows = state.rows.count
                paths = state.rows.count { $0.context == true }
                viewModel.closeView(id)
                times.append(time)
                let flatID = ViewID.own(3000 + index * 10 + run)
                let (_, flatTime) = try measure { try viewModel.openView(flatID, definition: flat) }
                viewModel.closeView(flatID)
                flatTimes.append(flatTime)
            }
            report.compare(
                "open \(label): median", percentile(times, 0.5), "ms", anchor: (name: "flat", value: percentile(flatTimes, 0.5)),
                goal: .atMost(100), figure: "open a tree view of \(count) items, \(label) (\(rows) rows, \(paths) path rows): median")
        }
    }
}

/// Edits of items in trees and chains, in turns: each kind reaches beyond
/// the item it names (its subtasks, its parent's path, its dependents).
struct LinkedEditRun {
    enum Kind: CaseIterable, Hashable {
        case modifyAny, modifySubtask, completeRoot, unblock, addSubtask, moveSubtree, deleteLeaf

        var label: String {
            switch self {
            case .modifyAny: "modify any item"
            case .modifySubtask: "modify a subtask"
            case .completeRoot: "done/undone a tree's root"
            case .unblock: "done/undone a chain's head"
            case .addSubtask: "add a subtask"
            case .moveSubtree: "move a subtree"
            case .deleteLeaf: "delete a grandchild"
            }
        }

        var command: String {
            switch self {
            case .modifyAny: ".modify(any id, \"+work pri:H\")"
            case .modifySubtask: ".modify(child, \"+work pri:H\")"
            case .completeRoot: ".setDone(root, !done) (its 4 subtasks follow)"
            case .unblock: ".setDone(head, !done) (unblocks the next)"
            case .addSubtask: ".addText(\"step +work parent:root\")"
            case .moveSubtree: ".modify(child, \"parent:other root\")"
            case .deleteLeaf: ".delete(grandchild)"
            }
        }
    }

    let viewModel: TodoListViewModel
    let trees: [[TodoID]]
    let chains: [[TodoID]]
    let all: [TodoID]
    let edits: Int

    func run() throws -> [Kind: [Double]] {
        var random = SplitMix(seed: 29)
        var times: [Kind: [Double]] = [:]
        var removed: Set<TodoID> = []
        func time(_ kind: Kind, _ command: TodoCommand) throws {
            let (outcome, elapsed) = try measure { try viewModel.perform(command) }
            times[kind, default: []].append(elapsed)
            for change in outcome.write?.changes ?? [] where change.after == nil { removed.insert(change.id) }
        }
        // Read before each toggle (adding a subtask or moving one under a
        // done root reopens it), outside the time measured.
        func isDone(_ id: TodoID) throws -> Bool { try viewModel.details(of: id).row.done }
        for edit in 0..<edits {
            var any = all[random.below(all.count)]
            while removed.contains(any) { any = all[random.below(all.count)] }
            try time(.modifyAny, .modify(any, "+work pri:H"))
            let tree = trees[random.below(trees.count)]
            let child = tree[1 + random.below(2)]
            if !removed.contains(child) { try time(.modifySubtask, .modify(child, "+work pri:H")) }
            let root = tree[0]
            try time(.completeRoot, .setDone(root, !(try isDone(root))))
            let head = chains[random.below(chains.count)][0]
            try time(.unblock, .setDone(head, !(try isDone(head))))
            try time(.addSubtask, .addText("step \(edit) +work parent:\(root)"))
            let other = trees[random.below(trees.count)][0]
            if !removed.contains(child), other != root { try time(.moveSubtree, .modify(child, "parent:\(other)")) }
            let leaf = tree[3 + random.below(2)]
            if !removed.contains(leaf) { try time(.deleteLeaf, .delete(leaf)) }
        }
        return times
    }
}
