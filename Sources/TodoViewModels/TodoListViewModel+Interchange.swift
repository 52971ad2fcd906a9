import FoundationEssentials
import TodoInterchange
import TodoModel

/// Import and export: the view model reads and writes the formats with its
/// own clock and time zone, as it reads dates typed in commands, and its
/// declared fields, as it reads shorthand.
extension TodoListViewModel {
    /// What importing `text` in `format` would do; nothing changes. Carry
    /// it out with `perform(.applyImport(plan))` in the same turn.
    public func planImport(
        _ text: String, format: InterchangeFormat, cancelled: ICalendarFormat.Cancelled = .skipped,
        unholdable: ICalendarFormat.Unholdable = .refusesAll
    ) throws(TodoError) -> ImportPlan {
        let batch: ImportBatch
        do { batch = try format.read(text, timeZone: clock.timeZone, fields: fields, cancelled: cancelled, unholdable: unholdable) } catch {
            throw .invalidImport(location: error.location, message: error.message)
        }
        return ImportPlan(batch, format: format, into: collection, listID: listID, at: clock.currentTime(), timeZone: clock.timeZone)
    }

    /// Refuses a plan made on another state of the list: its changes must
    /// start from the items as they are, and its new ids must be free.
    /// A step may change an item twice (a sync's update, then the
    /// completion of the same item): its first change starts from the list.
    func checkFits(_ plan: ImportPlan) throws(TodoError) {
        var seen: Set<TodoID> = []
        for change in plan.step?.changes ?? [] where seen.insert(change.id).inserted {
            if let before = change.before {
                guard collection[before.id] == before else { throw .importOutdated }
            } else if change.id < collection.nextID {
                throw .importOutdated
            }
        }
    }

    /// The items an export holds, by id: every item, or those `query`
    /// matches now (done ones too, unless the query says otherwise).
    public func exportedItems(matching query: Query) throws(TodoError) -> [TodoItem] {
        let compiled = try compile(query, at: ViewClock(now: clock.currentTime(), timeZone: clock.timeZone))
        var items: [TodoItem] = []
        collection.forEachItem { item in if compiled.matches(item) { items.append(item) } }
        return items.sorted { $0.id < $1.id }
    }

    /// How this list writes `format`, now. The document reads the list
    /// for the identity of each item a link names (keep it no longer than
    /// the export: it holds the items).
    public func exportDocument(_ format: InterchangeFormat, version: String) -> ExportDocument {
        ExportDocument(
            format: format, listID: listID, timeZone: clock.timeZone, now: clock.currentTime(), version: version, fields: fields,
            list: collection)
    }
}
