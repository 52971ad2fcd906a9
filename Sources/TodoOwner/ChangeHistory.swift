import Foundation
import TodoStorage
import TodoProtocol

/// The recent transactions, as the shared views saw them, kept so that a
/// client that missed some (a dropped connection, a daemon restart) can be
/// sent just those instead of the whole list.
///
/// Bounded by a number of revisions and by the bytes their change sets take
/// in wire form, whichever is reached first; the oldest go first. Own views
/// are not kept: they end with their connection.
struct ChangeHistory {
    struct Entry: Codable {
        var revision: Int
        var cause: Cause?
        /// The change set of every shared view the transaction changed, by view name.
        var views: [String: ChangeBody]
        var bytes: Int
    }

    let revisionLimit: Int
    let byteLimit: Int
    /// Every revision after this one, up to the newest entry, is held.
    private(set) var floor: Int
    private var entries: [Entry] = []
    private var start = 0
    private var bytes = 0

    init(revisionLimit: Int, byteLimit: Int, floor: Int) {
        self.revisionLimit = revisionLimit
        self.byteLimit = byteLimit
        self.floor = floor
    }

    mutating func append(_ entry: Entry) {
        entries.append(entry)
        bytes += entry.bytes
        while entries.count - start > revisionLimit || (bytes > byteLimit && entries.count - start > 0) {
            let oldest = entries[start]
            bytes -= oldest.bytes
            floor = oldest.revision
            start += 1
        }
        if start > 1024 && start * 2 > entries.count {
            entries.removeFirst(start)
            start = 0
        }
    }

    /// Whether every transaction after `revision` is held.
    func covers(after revision: Int) -> Bool { revision >= floor }

    /// The entries after `revision`, oldest first.
    func entries(after revision: Int) -> ArraySlice<Entry> {
        let held = entries[start...]
        guard let index = held.firstIndex(where: { $0.revision > revision }) else { return [] }
        return held[index...]
    }

    // MARK: Keeping it across a restart

    func record(epoch: String, revision: Int) -> ResumeRecord {
        let encoder = JSONEncoder()
        let history = entries[start...].compactMap { entry in
            (try? encoder.encode(entry)).map { ResumeRecord.Entry(revision: entry.revision, payload: $0) }
        }
        return ResumeRecord(epoch: epoch, revision: revision, history: history)
    }

    init(record: ResumeRecord, revisionLimit: Int, byteLimit: Int) {
        self.init(revisionLimit: revisionLimit, byteLimit: byteLimit, floor: record.revision)
        let decoder = JSONDecoder()
        let decoded = record.history.compactMap { try? decoder.decode(Entry.self, from: $0.payload) }
        // Only an unbroken run that ends at the record's revision is of use.
        guard let first = decoded.first, decoded.last?.revision == record.revision,
            decoded.count == record.revision - first.revision + 1
        else { return }
        floor = first.revision - 1
        for entry in decoded { append(entry) }
    }
}
