import Foundation

/// What a shared list replaced under this instance would lose, kept in a
/// file of the data directory for the user to look through.
extension ListOwner {
    /// Writes `text` (a Taskwarrior export, which `todoctl import` reads)
    /// to a new file in the data directory, readable by its owner only,
    /// durable before it returns, and returns its path.
    func saveAside(_ text: String, at moment: Date = Date()) throws -> String {
        let stamp = ISO8601DateFormatter().string(from: moment).replacingOccurrences(of: ":", with: "-")
        var path = "\(asideDirectory)/left-behind-\(stamp).json"
        var suffix = 2
        while FileManager.default.fileExists(atPath: path) {
            path = "\(asideDirectory)/left-behind-\(stamp)-\(suffix).json"
            suffix += 1
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SaveAsideFailed(path: path, errno: errno) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let failure = errno
                unlink(path)
                throw SaveAsideFailed(path: path, errno: failure)
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let failure = errno
            unlink(path)
            throw SaveAsideFailed(path: path, errno: failure)
        }
        return path
    }

    struct SaveAsideFailed: Error, CustomStringConvertible {
        var path: String
        var errno: Int32
        var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
    }
}

extension ListOwner {
    /// Adds `notice` to what `server.status` lists and says it in the
    /// journal, once: something the user should act on, such as a local
    /// list this instance no longer serves.
    public func tell(_ notice: String) {
        noticed(notice, .notice)
        isShutDown.withLock { isShutDown in
            guard !isShutDown else { return }
            loop.execute {
                self.state.withValue { $0.addNotice(notice) }
                self.finishTurn()
            }
        }
    }
}
