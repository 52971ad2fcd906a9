import Foundation

/// Prepares the path todod binds its own socket at, when systemd did not pass one.
///
/// The directory is made private (0700) so no other user can reach the
/// socket even before its own mode (0600) applies. A socket file left by a
/// daemon that crashed is removed, but one that a running todod still serves
/// is not: starting a second daemon on the same path is refused instead.
///
/// A directory that other users can write is refused, sticky or not (/tmp):
/// there another user can create the socket path before todod does, or
/// replace todod's socket after, and read what clients send. systemd's
/// activation socket is not prepared here: systemd chose and owns it.
public enum ListeningSocket {
    public enum PreparationError: Error, CustomStringConvertible {
        case alreadyServed(path: String)
        case notASocket(path: String)
        case pathTooLong(path: String)
        case cannotCreateDirectory(path: String, reason: String)
        case unsafeDirectory(path: String, mode: mode_t, owner: uid_t)

        /// EX_NOPERM for a directory other users can write (it needs a
        /// person to choose another); 1 for the rest, as before.
        public var exitCode: Int32 {
            if case .unsafeDirectory = self { return 77 }
            return 1
        }

        public var description: String {
            switch self {
            case .alreadyServed(let path):
                "another todod is already serving \(path); stop it first (systemctl --user stop todod.service todod.socket) or pass --socket"
            case .notASocket(let path):
                "\(path) exists and is not a socket; remove it or pass --socket"
            case .pathTooLong(let path):
                "the socket path \(path) is longer than a Unix socket address allows (107 bytes); pass a shorter --socket"
            case .cannotCreateDirectory(let path, let reason):
                "cannot create the socket directory \(path): \(reason)"
            case .unsafeDirectory(let path, let mode, let owner):
                "refusing to serve in \(path) (mode \(String(mode & 0o7777, radix: 8)), owner uid \(owner)): "
                    + (owner != geteuid() ? "it belongs to another user"
                        : mode & S_ISVTX != 0 ? "other users can write to it (the sticky bit does not stop them from binding the socket's path first)"
                        : "other users can write to it")
                    + ", so they could take the socket's place and read what clients send; "
                    + "pass a --socket in a directory only you can write (the default $XDG_RUNTIME_DIR/todod is one)"
            }
        }
    }

    static func prepare(path: String) throws(PreparationError) {
        guard path.utf8.count < 108 else { throw .pathTooLong(path: path) }
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw .cannotCreateDirectory(path: directory, reason: error.localizedDescription)
        }
        try checkOnlyOwnerWrites(directory)
        var status = stat()
        guard lstat(path, &status) == 0 else { return }  // nothing there: fine
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        if isServed(path) { throw .alreadyServed(path: path) }
        unlink(path)
    }

    /// Refuses a directory owned by another user or writable by group or others.
    private static func checkOnlyOwnerWrites(_ directory: String) throws(PreparationError) {
        var status = stat()
        guard stat(directory, &status) == 0 else {
            throw .cannotCreateDirectory(path: directory, reason: String(cString: strerror(errno)))
        }
        if status.st_uid != geteuid() || status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            throw .unsafeDirectory(path: directory, mode: status.st_mode, owner: status.st_uid)
        }
    }

    /// Whether something accepts connections on the socket at `path`.
    private static func isServed(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path.utf8.prefix(buffer.count - 1))
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}
