import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on todod's data directory, held for the daemon's life.
///
/// Two daemons on one database would each serve the items they loaded and
/// write their own edits back by id, so an edit acknowledged by one is
/// overwritten by the other. SQLite's locks do not prevent that: they make
/// single transactions exclusive, not whole daemons. So before it opens the
/// database, todod takes `flock(LOCK_EX)` on `todod.lock` in the data
/// directory, on every start-up path (a socket bound here or one passed by
/// systemd), and a second daemon refuses to start.
///
/// The descriptor is never closed: the kernel drops the lock when the
/// process ends, however it ends (SIGKILL included), so a lock file left
/// behind never blocks the next start. The holder's pid is written into the
/// file only to name it in the second daemon's message; writing it is best
/// effort (a full disk must not stop a start).
public struct DataDirectoryLock: Sendable {
    public static let fileName = "todod.lock"

    /// EX_TEMPFAIL: the directory is busy now and will be free once the
    /// other todod stops, so trying again later is the right answer, and the
    /// code tells that apart from a damaged store (71) or a bad
    /// configuration (78). todod.service does not restart on it.
    public static let exitCode: Int32 = 75

    public let path: String
    private let descriptor: Int32

    public enum Failure: Error, CustomStringConvertible {
        case held(directory: String, holder: pid_t?)
        case unusable(path: String, reason: String)

        public var description: String {
            switch self {
            case .held(let directory, let holder):
                "another todod\(holder.map { " (pid \($0))" } ?? "") is using the data directory \(directory); "
                    + "two on one database would overwrite each other's items. Stop it first, or give this one another --data-dir"
            case .unusable(let path, let reason):
                "cannot lock \(path): \(reason)"
            }
        }
    }

    /// Takes the lock on `directory` (which must exist), or throws at once
    /// if another process holds it.
    public init(directory: String) throws(Failure) {
        let path = directory + "/" + Self.fileName
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .unusable(path: path, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = code == EWOULDBLOCK ? Self.readPID(descriptor) : nil
            Glibc.close(descriptor)
            if code == EWOULDBLOCK { throw .held(directory: directory, holder: holder) }
            throw .unusable(path: path, reason: String(cString: strerror(code)))
        }
        self.path = path
        self.descriptor = descriptor
        writePID()
    }

    /// Replaces the file's content with this process's pid. Written over the
    /// old content before truncating, so the usual case (a pid as long as
    /// the last one) needs no new disk block.
    private func writePID() {
        let text = Array("\(getpid())\n".utf8)
        let written = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        if written == text.count { _ = ftruncate(descriptor, off_t(text.count)) }
    }

    private static func readPID(_ descriptor: Int32) -> pid_t? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return pid_t(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
