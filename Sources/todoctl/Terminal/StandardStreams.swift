import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The standard streams with plain system calls. Foundation's `FileHandle`
/// would link the whole of Foundation, and ICU with it (some 44 MB), into a
/// command line tool that has no use for either; todoctl's binary and start
/// up time are what every command pays.
enum StandardStreams {
    /// Writes all of `bytes` to `descriptor`, retrying interrupted and short
    /// writes. A closed pipe (`todoctl export | head`) or a terminal that
    /// is gone ends todoctl, as SIGPIPE ends `cat` (`ReaderGone`).
    static func write(_ bytes: some Sequence<UInt8>, to descriptor: Int32 = STDOUT_FILENO) {
        let buffer = Array(bytes)
        var written = 0
        while written < buffer.count {
            let count = buffer[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EPIPE || errno == EIO) { ReaderGone.end() }
            guard count > 0 else { return }
            written += count
        }
    }

    static func write(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
        write(text.utf8, to: descriptor)
    }

    /// Everything `descriptor` holds until its end.
    static func readAll(from descriptor: Int32 = STDIN_FILENO) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }
}
