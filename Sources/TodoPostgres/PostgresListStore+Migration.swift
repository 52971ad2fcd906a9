import Foundation
import Logging
import PostgresNIO
import TodoModel
import TodoStoreInterface
import TodoViewModels

/// `todod migrate`: a list moved into the shared store whole, in one
/// transaction: items with their ids, the undo and redo history, the shared
/// views, the fired and snoozed reminders, and the list's own identity (so
/// exports keep matching what was exported before the move).
extension PostgresListStore {
    /// What the target held before, when it was refused.
    public struct TargetNotEmpty: Error, CustomStringConvertible {
        public var items: Int
        public var revision: Int
        public var description: String {
            "the target list is not empty (\(items) items, revision \(revision)); give --force to replace it"
        }
    }

    /// Instances serve the list that `--force` would replace.
    public struct InstancesRunning: Error, CustomStringConvertible {
        /// Each one's application name and address, from `pg_stat_activity`.
        public var instances: [String]
        public var description: String {
            "\(instances.count) todod \(instances.count == 1 ? "instance serves" : "instances serve") this list ("
                + instances.joined(separator: ", ")
                + "); stop them first, or give --while-running: they then reload the copied list, "
                + "each saving aside what it held that the copy lacks"
        }
    }

    /// Replaces whatever the database holds with `snapshot`, in one
    /// transaction; refuses a list that is not empty unless `force`, and
    /// one that running instances serve unless `whileRunning` too. The
    /// list gets a new epoch and starts at revision 0 with an empty change
    /// log: instances started afterwards read it whole, and those running
    /// are told (a notification with no revision) and reload it. Returns
    /// how many items were copied.
    public func replaceList(with snapshot: ListSnapshot, force: Bool, whileRunning: Bool = false) throws -> Int {
        let items = try Self.jsonArray(snapshot.items)
        var steps: [String] = []
        for (stack, list) in [("undo", snapshot.history.undoSteps), ("redo", snapshot.history.redoSteps)] {
            for step in list {
                if let failure = step.readFailure {
                    throw UnreadableStep(step: step.description, reason: failure)
                }
                let json = String(decoding: try StoredWrite.encoder.encode(step), as: UTF8.self)
                steps.append("{\"stack\":\"\(stack)\",\"step\":\(json)}")
            }
        }
        let views = try Self.jsonObject(
            snapshot.viewSettings.mapValues {
                StoredWrite.View(filter: $0.filter.rawValue, sort: $0.sort.text, query: $0.query, grouping: $0.grouping?.rawValue)
            })
        let reminders = StoredWrite(
            ListWrite(
                firedReminders: Array(snapshot.firedReminders).sorted { ($0.itemID, $0.condition.rawValue) < ($1.itemID, $1.condition.rawValue) },
                desktopReminders: snapshot.desktopReminders))
        let fired = try Self.jsonArray(reminders.fired)
        let desktop = try Self.jsonArray(reminders.desktop)
        let history = "[" + steps.joined(separator: ",") + "]"
        let (listID, nextID) = (snapshot.listID, snapshot.nextID.rawValue)
        return try withConnection { connection, logger in
            try await connection.query("BEGIN", logger: logger)
            do {
                // Ordered with every commit, as todod_commit is.
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.headLock))", logger: logger)
                var present = (items: 0, revision: 0)
                for try await (count, revision) in try await connection.query(
                    "SELECT (SELECT count(*) FROM item)::bigint, revision FROM list_head WHERE id = 1 FOR UPDATE", logger: logger
                ).decode((Int, Int).self) {
                    present = (count, revision)
                }
                if present.items > 0 || present.revision > 0 {
                    guard force else { throw TargetNotEmpty(items: present.items, revision: present.revision) }
                    if !whileRunning {
                        let running = try await Self.runningInstances(connection, logger)
                        if !running.isEmpty { throw InstancesRunning(instances: running) }
                    }
                }
                for table in ["item", "history_step", "view_setting", "fired_reminder", "desktop_reminder", "change_log"] {
                    try await connection.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table)"), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO item (id, item) SELECT (e->>'id')::bigint, e FROM jsonb_array_elements(\(items)::jsonb) e",
                    logger: logger)
                try await connection.query(
                    """
                    INSERT INTO history_step (stack, step)
                    SELECT e->>'stack', e->'step' FROM jsonb_array_elements(\(history)::jsonb) WITH ORDINALITY AS s(e, n) ORDER BY n
                    """, logger: logger)
                try await connection.query(
                    "INSERT INTO view_setting (name, settings) SELECT key, value FROM jsonb_each(\(views)::jsonb)", logger: logger)
                try await connection.query(
                    """
                    INSERT INTO fired_reminder (item_id, condition)
                    SELECT (r->>'itemID')::bigint, r->>'condition' FROM jsonb_array_elements(\(fired)::jsonb) r
                    """, logger: logger)
                try await connection.query(
                    """
                    INSERT INTO desktop_reminder (item_id, condition, snoozed_until, dismissed)
                    SELECT (d->>'itemID')::bigint, d->>'condition', (d->>'snoozedUntil')::bigint, (d->>'dismissed')::boolean
                    FROM jsonb_array_elements(\(desktop)::jsonb) d
                    """, logger: logger)
                try await connection.query(
                    """
                    UPDATE list_head SET list_id = \(listID), epoch = gen_random_uuid()::text, revision = 0, next_id = \(nextID)
                    WHERE id = 1
                    """, logger: logger)
                try await connection.query("SELECT pg_notify('todod', 'replaced')", logger: logger)
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
            return snapshot.items.count
        }
    }

    /// The instances connected to this database, by the lock each holds
    /// while it runs (`PostgresSchema.instanceLock`).
    static func runningInstances(_ connection: PostgresConnection, _ logger: Logger) async throws -> [String] {
        let (classid, objid) = PostgresSchema.instanceLockRow
        var found: [String] = []
        for try await (name, address) in try await connection.query(
            """
            SELECT coalesce(nullif(a.application_name, ''), 'todod'), coalesce(host(a.client_addr), 'local socket')
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.classid = \(classid)::oid AND l.objid = \(objid)::oid AND l.objsubid = 1
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.pid <> pg_backend_pid()
            ORDER BY a.backend_start
            """, logger: logger
        ).decode((String, String).self) {
            found.append("\(name) from \(address)")
        }
        return found
    }

    private static func jsonArray<Element: Encodable>(_ elements: [Element]) throws -> String {
        String(decoding: try StoredWrite.encoder.encode(elements), as: UTF8.self)
    }

    private static func jsonObject<Value: Encodable>(_ object: [String: Value]) throws -> String {
        String(decoding: try StoredWrite.encoder.encode(object), as: UTF8.self)
    }
}
