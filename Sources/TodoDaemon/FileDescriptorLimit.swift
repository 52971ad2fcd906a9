import Foundation
import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// How many connections todod can really serve under its file-descriptor
/// limit (`RLIMIT_NOFILE`, e.g. `ulimit -n`, systemd's `LimitNOFILE=`).
///
/// Each connection holds one descriptor. When they run out, `accept` fails
/// with EMFILE and a client waits in the backlog with no answer at all, so
/// todod must refuse (with `server.tooManyConnections`) while it can still
/// accept: it serves at most the soft limit minus what it needs for itself,
/// and says so in the greeting's `limits.maxConnections`.
public enum FileDescriptorLimit {
    /// Descriptors todod holds whatever its load, besides the event loops'
    /// and inherited ones. Measured on an idle todod (`ls -l /proc/PID/fd`,
    /// Debian 12, 2 event loops): stdin, stdout, stderr; the database, its
    /// `-wal` (twice: SQLite's and the one `synchronize()` fsyncs) and
    /// `-shm`; the data-directory lock; the listening socket; 3 signalfds
    /// (signal handling) and Dispatch's epoll, eventfd and 2 timerfds: 16;
    /// and the 4 `OutOfDescriptorsPause` holds back: 20. Rounded up for
    /// those held for a moment: the directory fsync, SQLite's temporary
    /// files, a journald stream, user-name lookups, libdispatch's look at its
    /// threads.
    static let ownDescriptors = 28
    /// Each NIO event loop holds an epoll, an eventfd and a timerfd.
    static let descriptorsPerEventLoop = 3
    /// The state owner's loop, which serves every connection, and NIO's
    /// shared loops, counted in case anything starts them.
    static var eventLoops: Int { NIOSingletons.groupLoopCountSuggestion + 1 }
    /// A connection being refused holds a descriptor until its error line is
    /// read (at most 10 ms): room for a burst of them.
    static let refusalHeadroom = 32

    /// Descriptors open when todod started, besides stdin, stdout and
    /// stderr: systemd's socket, and whatever the parent leaked (a shell, an
    /// editor; the test runner leaks a dozen). They count against the limit
    /// like todod's own.
    private static let inherited = Atomic<Int>(0)

    /// Counts the inherited descriptors: call once, first thing at start.
    /// Event and timer descriptors (`anon_inode:`) are the Swift runtime's
    /// own by then, already in `ownDescriptors`.
    public static func countInheritedDescriptors() {
        let directory = "/proc/self/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let count = entries.filter { entry in
            guard let number = Int32(entry), number > 2,
                // The listing's own descriptor is closed by now: no target.
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + entry)
            else { return false }
            return !target.hasPrefix("anon_inode:")
        }.count
        inherited.store(count, ordering: .relaxed)
    }

    /// What todod keeps back from the limit for itself.
    static var reserve: Int {
        ownDescriptors + descriptorsPerEventLoop * eventLoops + refusalHeadroom
            + inherited.load(ordering: .relaxed)
    }

    /// The soft `RLIMIT_NOFILE`, or nil when unlimited or unknown.
    static func softLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }  // RLIM_INFINITY
        return Int(clamping: limit.rlim_cur)
    }

    /// `configured`, lowered to what a soft limit of `softLimit` leaves after
    /// the reserve; at least 1, so a tiny limit still serves one client.
    static func servableConnections(configured: Int, softLimit: Int?, reserve: Int = reserve) -> Int {
        guard let softLimit else { return configured }
        return max(1, min(configured, softLimit - reserve))
    }
}

extension DaemonConfiguration {
    /// `maximumConnections`, lowered to what the file-descriptor limit allows
    /// now (read at each use: `prlimit` can change it while todod runs).
    var servableConnections: Int {
        FileDescriptorLimit.servableConnections(configured: maximumConnections, softLimit: FileDescriptorLimit.softLimit())
    }
}
