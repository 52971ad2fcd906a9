import Foundation
import TodoStoreInterface
import TodoProtocol
import TodoViewState

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
        private var changeSets: ChangeSets
        /// Their size in wire form; nil until measured (`measure`).
        private(set) var bytes: Int?

        /// The change sets as the view model made them, or in wire form.
        private enum ChangeSets {
            /// As published: the wire form is built only if a client is
            /// sent it or the history measures it, since most never are.
            case unbuilt([String: TodoListChange])
            case built([String: ChangeBody])
        }

        /// A transaction as published, by shared view name.
        init(revision: Int, cause: Cause?, changes: [String: TodoListChange]) {
            self.revision = revision
            self.cause = cause
            self.changeSets = .unbuilt(changes)
        }

        /// A transaction whose change sets are already in wire form.
        init(revision: Int, cause: Cause?, views: [String: ChangeBody], bytes: Int?) {
            self.revision = revision
            self.cause = cause
            self.changeSets = .built(views)
            self.bytes = bytes
        }

        /// The change set of the shared view `name`, if the transaction changed it.
        func view(_ name: String) -> ChangeBody? {
            switch changeSets {
            case .built(let views): views[name]
            case .unbuilt(let changes): changes[name].map { ChangeBody(revision: revision, change: $0, cause: cause) }
            }
        }

        /// The change set of every shared view the transaction changed, by view name.
        var views: [String: ChangeBody] {
            switch changeSets {
            case .built(let views): views
            case .unbuilt(let changes): changes.mapValues { ChangeBody(revision: revision, change: $0, cause: cause) }
            }
        }

        /// Rows the change sets carry: what makes a change set large.
        var rowCount: Int {
            switch changeSets {
            case .built(let views): views.values.reduce(1) { $0 + $1.rows.count }
            case .unbuilt(let changes): changes.values.reduce(1) { $0 + $1.rowOperations.count }
            }
        }

        /// The size of the change sets in wire form, as a client would be sent them.
        func measured() -> Int {
            views.values.reduce(0) { $0 + MessageEncoding.json($1).count }
        }

        /// Builds the wire form and measures it. A measured entry keeps only
        /// the wire form, which holds just what changed (the view model's
        /// change set holds every property), so what the history holds is
        /// what its byte limit counts.
        mutating func measure() -> Int {
            changeSets = .built(views)
            let measured = measured()
            bytes = measured
            return measured
        }

        private enum CodingKeys: String, CodingKey {
            case revision, cause, views, bytes
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                revision: try container.decode(Int.self, forKey: .revision),
                cause: try container.decodeIfPresent(Cause.self, forKey: .cause),
                views: try container.decode([String: ChangeBody].self, forKey: .views),
                bytes: try container.decodeIfPresent(Int.self, forKey: .bytes))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(revision, forKey: .revision)
            try container.encodeIfPresent(cause, forKey: .cause)
            try container.encode(views, forKey: .views)
            try container.encodeIfPresent(bytes, forKey: .bytes)
        }
    }

    let revisionLimit: Int
    let byteLimit: Int
    /// Every revision after this one, up to the newest entry, is held.
    private(set) var floor: Int
    private var entries: [Entry] = []
    private var start = 0
    /// The bytes of the entries held that are measured.
    private var bytes = 0
    /// The rows of the entries held that are not.
    private var unmeasuredRows = 0

    /// Change sets are measured (encoded) only once this many rows wait, or
    /// when the history is read: most transactions change one row, and a
    /// history that nobody resumes from was encoded for nothing (a fifth of
    /// the instructions of an add with no subscriber). A large change set
    /// (an import) is measured at once, so memory stays bounded by bytes.
    static let rowsBeforeMeasuring = 2048

    init(revisionLimit: Int, byteLimit: Int, floor: Int) {
        self.revisionLimit = revisionLimit
        self.byteLimit = byteLimit
        self.floor = floor
    }

    /// Keeps `entry`, then lets go of the oldest while more than
    /// `revisionLimit` entries, or more than `byteLimit` measured bytes, are
    /// held. What stays once everything is measured (`settle`) is what
    /// measuring each entry as it came would have kept: the longest run of
    /// newest entries within both limits.
    mutating func append(_ entry: Entry) {
        entries.append(entry)
        if let measured = entry.bytes { bytes += measured } else { unmeasuredRows += entry.rowCount }
        if unmeasuredRows > Self.rowsBeforeMeasuring { measureAll() }
        trim()
    }

    /// Measures every entry held and trims to the limits: before the
    /// history is read or kept.
    mutating func settle() {
        measureAll()
        trim()
    }

    private mutating func measureAll() {
        guard unmeasuredRows > 0 else { return }
        for index in start..<entries.count where entries[index].bytes == nil {
            bytes += entries[index].measure()
        }
        unmeasuredRows = 0
    }

    private mutating func trim() {
        while entries.count - start > revisionLimit || (bytes > byteLimit && entries.count - start > 0) {
            let oldest = entries[start]
            if let measured = oldest.bytes { bytes -= measured } else { unmeasuredRows -= oldest.rowCount }
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
        var settled = self
        settled.settle()
        return settled.settledRecord(epoch: epoch, revision: revision)
    }

    private func settledRecord(epoch: String, revision: Int) -> ResumeRecord {
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
