import Foundation

/// One sync at a time per state: the service holds this lock while it runs,
/// so `todoctl sync now` knows whether to ask it (SIGUSR1, to the pid the
/// file names) or to sync itself.
public final class SyncLock {
    private let descriptor: Int32

    /// Takes the lock, or returns nil when another process holds it.
    public init?(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory + "/sync.lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SyncSetupError("cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.utf8.count, 0)
    }

    deinit { close(descriptor) }

    /// The process holding the lock in `directory`, if one does.
    public static func holder(in directory: String) -> pid_t? {
        let path = directory + "/sync.lock"
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // Free if it can be taken (and then let go at once).
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path),
            let pid = pid_t(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return pid
    }
}
