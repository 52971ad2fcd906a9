import Foundation

/// A new folder for one test's files, removed with everything in it when the
/// last reference to it goes: at the end of the test that made it, whether
/// the test passed, failed or threw. Keep it in a local or in the suite's
/// instance (a new one for every test) and put the test's files inside, a
/// database with its `-wal` and `-shm` or a child's scratch files
/// (`TMPDIR=path`) alike, and nothing is left behind to fill the machine's
/// temporary directory over many runs.
///
/// Its name begins `todod-`, the prefix scripts/test looks for after the run,
/// so that anything a test does leave behind is reported there.
public final class TemporaryDirectory: Sendable {
    public let url: URL
    public var path: String { url.path }

    /// Makes `PARENT/todod-PURPOSE-XXXXXX` (mkdtemp: a fresh name, mode 0700).
    /// `parent` is the temporary directory (TMPDIR) unless given; give /tmp
    /// where a Unix socket goes inside, whose path must stay under 108 bytes.
    public init(_ purpose: String, in parent: String = NSTemporaryDirectory()) throws {
        let parent = parent.hasSuffix("/") ? String(parent.dropLast()) : parent
        var template = Array("\(parent)/todod-\(purpose)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw TemporaryDirectoryError("cannot make a folder in \(parent): \(String(cString: strerror(errno)))")
        }
        url = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// The temporary directory would not make a folder: full, or not writable.
public struct TemporaryDirectoryError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
