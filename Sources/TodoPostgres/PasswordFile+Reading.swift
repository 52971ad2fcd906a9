import Foundation

/// Reading a pgpass file from disk, with libpq's checks: a file that is
/// not a regular file, or that its group or others may read or write, is
/// not used. A password file anyone else can read is a password anyone else
/// has, so todod, like libpq, refuses to rely on it, and says why (a
/// warning for the log) rather than failing: the server may not need a
/// password at all.
extension PasswordFile {
    /// What reading a pgpass file came to.
    public enum Loading: Equatable, Sendable {
        /// The file, parsed.
        case loaded(PasswordFile)
        /// There is no file at the path: no password, which is not a problem.
        case absent
        /// The file is there but not used; the reason is for the log.
        case ignored(reason: String)
    }

    /// Reads and parses the pgpass file at `path`, unless it is missing or
    /// fails libpq's checks.
    ///
    /// - Throws: ``PasswordFileError`` when the file passes the checks but
    ///   cannot be read, or is not UTF-8 text.
    public static func load(path: String) throws(PasswordFileError) -> Loading {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let error = errno
            if error == ENOENT || error == ENOTDIR { return .absent }
            throw .cannotRead(path: path, reason: String(cString: strerror(error)))
        }
        if let reason = ignoreReason(path: path, mode: UInt32(status.st_mode)) { return .ignored(reason: reason) }
        let bytes = try contents(path: path)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notText(path: path) }
        return .loaded(PasswordFile(parsing: text))
    }

    /// The file's bytes, read with POSIX calls so that a failure is told
    /// with the system's own words (such as "Permission denied").
    private static func contents(path: String) throws(PasswordFileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
            }
            bytes += buffer[..<count]
        }
    }

    /// Why libpq would not use a file with this `st_mode`, or nil if it
    /// would: it must be a regular file (following symbolic links), and
    /// neither group nor others may have any access (0600 or less, such as 0400).
    public static func ignoreReason(path: String, mode: UInt32) -> String? {
        if mode & UInt32(S_IFMT) != UInt32(S_IFREG) {
            return "password file \"\(path)\" is not a plain file, so it is not used"
        }
        let permissions = mode & 0o777
        if permissions & 0o077 != 0 {
            let octal = String(permissions, radix: 8)
            return "password file \"\(path)\" is not used: it has group or world access (mode "
                + String(repeating: "0", count: max(0, 4 - octal.count)) + octal
                + "); permissions should be u=rw (0600) or less, as with chmod 600"
        }
        return nil
    }
}

/// A pgpass file that is there, allowed, and still cannot be used.
public enum PasswordFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case notText(path: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read the password file \"\(path)\": \(reason)"
        case .notText(let path): "the password file \"\(path)\" is not UTF-8 text"
        }
    }
}
