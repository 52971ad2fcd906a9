import BuildInfo
import TodoInterchange
import TodoModel
import TodoProtocol
import TodoViewModels

extension ImportTodos: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<Result> {
        guard owner.connections[cause.connection] != nil else { throw RPCError.internalError("no such connection") }
        let text = try owner.stage(params, on: cause.connection)
        guard let text else {
            let staged = owner.connections[cause.connection]?.stagedImport?.text.utf8.count ?? 0
            return OwnerState.Answer(result: Result(staged: staged), durableAt: owner.revision)
        }
        let plan = try owner.viewModel.planImport(text, format: params.format)
        if params.dryRun == true { return OwnerState.Answer(result: report(plan, done: nil), durableAt: owner.revision) }
        let (outcome, durableAt) = try owner.perform(.applyImport(plan), cause: cause)
        return OwnerState.Answer(result: report(plan, done: outcome.description), durableAt: durableAt)
    }

    /// The plan as the reply says it, up to `maximumListed`. A dry run lists
    /// every entry in the file's order, as the person reads the file along
    /// it; an import lists those with remarks first (what a person must
    /// read), then the rest.
    private static func report(_ plan: ImportPlan, done: String?) -> Result {
        let noted = plan.entries.filter { !$0.remarks.isEmpty }
        let plain = plan.entries.filter { $0.remarks.isEmpty }
        let listed = (done == nil ? plan.entries : noted + plain).prefix(maximumListed).map {
            Entry(action: $0.action.rawValue, id: $0.id?.rawValue, title: $0.title, source: $0.source, remarks: $0.remarks)
        }
        return Result(
            staged: 0, added: plan.count(.add), updated: plan.count(.update), unchanged: plan.count(.unchanged),
            skipped: plan.count(.skip), items: Array(listed), unlisted: plan.entries.count - listed.count, done: done)
    }
}

extension OwnerState {
    /// Adds a part to the connection's staged import text. Returns the
    /// whole text once the last part is in (and forgets it), nil while more
    /// parts are to come. Staging is bounded per connection and in all.
    fileprivate mutating func stage(_ params: ImportTodos.Params, on connection: Int) throws -> String? {
        var staged = connections[connection]!.stagedImport ?? (params.format, "")
        connections[connection]!.stagedImport = nil
        guard staged.format == params.format else {
            throw RPCError.invalidParams("the parts of one import must have one format; the staged parts were \(staged.format.rawValue)")
        }
        staged.text += params.text
        let size = staged.text.utf8.count
        guard size <= ImportTodos.maximumStagedBytes else {
            throw RPCError.importTooLarge(limit: ImportTodos.maximumStagedBytes, what: "one connection's")
        }
        guard params.more == true else { return staged.text }
        let others = connections.values.reduce(0) { $0 + ($1.stagedImport?.text.utf8.count ?? 0) }
        guard others + size <= ImportTodos.maximumStagedBytesInAll else {
            throw RPCError.importTooLarge(limit: ImportTodos.maximumStagedBytesInAll, what: "all connections'")
        }
        connections[connection]!.stagedImport = staged
        return nil
    }
}

extension ExportTodos: OwnerMethod {
    static func answer(_ params: Params, cause: Cause, owner: inout OwnerState) throws -> OwnerState.Answer<Result> {
        let query = try OwnerState.query(params.query ?? "", fields: owner.viewModel.fields)
        let items = try owner.viewModel.exportedItems(matching: query)
        let (after, before) = try position(params.cursor)
        let document = owner.viewModel.exportDocument(params.format, version: ReleaseVersion.number)
        var index = items.partitionPoint { $0.id.rawValue > after }
        var text = ""
        var count = 0
        // Item by item until the part is long enough: a part is at most
        // `partBytes` and one item (an item's text is at most a few hundred
        // kilobytes: 100 notes of 2,000 characters).
        while index < items.endIndex, text.utf8.count < partBytes {
            text += document.text(of: items[index...index], itemsBefore: before + count, isLast: false)
            count += 1
            index += 1
        }
        if index == items.endIndex {
            text += document.text(of: [TodoItem](), itemsBefore: before + count, isLast: true)
            return OwnerState.Answer(result: Result(text: text, count: count, cursor: nil), durableAt: owner.revision)
        }
        let cursor = "\(items[index - 1].id.rawValue):\(before + count)"
        return OwnerState.Answer(result: Result(text: text, count: count, cursor: cursor), durableAt: owner.revision)
    }

    /// A cursor is `LASTID:COUNT`: the last item written and how many were.
    private static func position(_ cursor: String?) throws -> (after: Int64, before: Int) {
        guard let cursor else { return (0, 0) }
        let parts = cursor.split(separator: ":")
        guard parts.count == 2, let after = Int64(parts[0]), let before = Int(parts[1]), after >= 0, before > 0 else {
            throw RPCError.invalidParams("cursor \"\(cursor)\" is not one todo.export gave")
        }
        return (after, before)
    }
}

extension Array where Element == TodoItem {
    /// The index of the first item for which `isAfter` holds (items sorted by id).
    fileprivate func partitionPoint(_ isAfter: (TodoItem) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
