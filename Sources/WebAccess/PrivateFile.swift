#if canImport(Glibc)
import Glibc
#endif

/// Small files read and written with the C library: todoctl links no Foundation.
enum PrivateFile {
    /// The file's text, or nil when it does not exist.
    static func readIfPresent(_ path: String) throws(WebAccessError) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw WebAccessError("cannot read \(path): \(lastError)")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw WebAccessError("cannot read \(path): \(lastError)")
            }
            if count == 0 { break }
            bytes += buffer[..<count]
            guard bytes.count <= 1 << 20 else { throw WebAccessError("\(path) is larger than 1 MiB") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Creates `path` with `text`, readable by its owner only from the first
    /// moment (O_EXCL, mode 0600), and syncs it. Returns false when the file
    /// exists already (another process made it first).
    static func create(_ path: String, text: String) throws(WebAccessError) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            if errno == EEXIST { return false }
            throw WebAccessError("cannot create \(path): \(lastError)")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else {
            unlink(path)
            throw WebAccessError("cannot write \(path): \(lastError)")
        }
        return true
    }

    /// Makes `path` and its missing parents, each new one 0700.
    static func makeDirectory(_ path: String) throws(WebAccessError) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw WebAccessError("cannot create \(prefix): \(lastError)")
            }
        }
    }

    static var lastError: String { String(cString: strerror(errno)) }
}
