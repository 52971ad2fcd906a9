import BenchmarkSupport
import Foundation
import Glibc

/// What PostgreSQL saw of a list's commits, read back after a load to say
/// why a rate is what it is: how many edits each stored commit carried (a
/// batch is every request that arrived while the instance's previous batch
/// was in flight), and how many `todod_commit` calls were refused because
/// another instance had committed first (each one a round trip, a read of
/// the change log and a re-plan).
///
/// Edits and stored commits come from `change_log`: the rows of one batch
/// share their `committed_at` (`now()` is the transaction's start). Calls
/// come from `pg_stat_user_functions`, which counts only with
/// `track_functions = 'pl'`, set on the list's database before its
/// instances connect (`enable`); PostgreSQL adds a backend's counts when it
/// ends, so `read` waits until the instances' sessions are gone.
struct CommitCounts {
    var edits = 0
    var stored = 0
    var calls = 0
    /// Milliseconds the server spent in `todod_commit` over all `calls`,
    /// before the flush (a function's time ends with its last statement).
    var commitTime = 0.0
    var refused: Int { calls - stored }

    static func enable(on list: SharedList) throws {
        try list.cluster.psql("ALTER DATABASE \"\(list.database)\" SET track_functions = 'pl'")
    }

    /// Once every instance on `list` has stopped.
    static func read(_ list: SharedList) throws -> CommitCounts {
        let deadline = ContinuousClock.now + .seconds(10)
        while try list.cluster.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(list.database)'")
            .trimmingCharacters(in: .whitespacesAndNewlines) != "0"
        {
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError.failed("sessions on \(list.database) still open 10 s after its instances stopped")
            }
            usleep(20_000)
        }
        let row = try list.cluster.psql(
            """
            SELECT (SELECT count(*) FROM change_log), (SELECT count(DISTINCT (instance, committed_at)) FROM change_log),
                (SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions WHERE funcname = 'todod_commit'),
                (SELECT round(coalesce(sum(total_time), 0) * 1000) FROM pg_stat_user_functions WHERE funcname = 'todod_commit')
            """, database: list.database)
        let fields = row.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").compactMap { Int($0) }
        guard fields.count == 4 else { throw BenchmarkError.failed("unexpected counts from \(list.database): \(row)") }
        return CommitCounts(edits: fields[0], stored: fields[1], calls: fields[2], commitTime: Double(fields[3]) / 1000)
    }

    /// "4,757 edits in 1,230 commits (3.9 each), 12 refused".
    var summary: String {
        let each = stored > 0 ? String(format: "%.1f", Double(edits) / Double(stored)) : "—"
        return "\(SharedStoreBenchmark.grouped(edits)) edits in \(SharedStoreBenchmark.grouped(stored)) commits (\(each) each), "
            + "\(SharedStoreBenchmark.grouped(refused)) more refused for a conflict; "
            + String(format: "%.3f ms in todod_commit per call", calls > 0 ? commitTime / Double(calls) : 0)
    }
}
