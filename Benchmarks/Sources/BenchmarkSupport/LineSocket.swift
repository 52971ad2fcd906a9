import Glibc

/// A blocking client of a Unix stream socket that sends and receives `\n`-ended
/// lines, with nothing between the benchmark and the system calls: the same
/// code times the plain echo (the floor) and todod, so the difference between
/// the two is todod's own. Each is used by one thread at a time.
///
/// Every read and write gives up after `timeoutSeconds` (`SO_RCVTIMEO`,
/// `SO_SNDTIMEO`), so a server that stops answering fails the benchmark
/// instead of hanging it.
public final class LineSocket: @unchecked Sendable {
    public static let timeoutSeconds = 60

    public let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    public init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError.system("socket", errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw BenchmarkError.failed("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        var timeout = timeval(tv_sec: Self.timeoutSeconds, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(descriptor)
            throw BenchmarkError.system("connect \(path)", error)
        }
        buffer.reserveCapacity(1 << 16)
    }

    deinit { close(descriptor) }

    /// Writes all of `bytes`.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { throw BenchmarkError.failed("the server read nothing for \(Self.timeoutSeconds) s") }
                throw BenchmarkError.system("write", errno)
            }
            offset += written
        }
    }

    /// Reads the next line (without its `\n`), blocking until it is complete.
    public func readLine() throws -> ArraySlice<UInt8> {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<newline]
                start = newline + 1
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            try fill()
        }
    }

    /// Bytes read from the socket but not yet returned as a line: code that
    /// reads `descriptor` itself checks this is 0 first.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Appends whatever the socket has (blocking until there is something).
    private func fill() throws {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { return }
            if errno == EAGAIN { throw BenchmarkError.failed("the server sent nothing for \(Self.timeoutSeconds) s") }
            throw BenchmarkError.system("read", errno)
        }
        if count == 0 { throw BenchmarkError.failed("the server closed the connection") }
        buffer.append(contentsOf: chunk[..<count])
    }
}

public enum BenchmarkError: Error, CustomStringConvertible {
    case system(String, Int32)
    case failed(String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        case .failed(let message): message
        }
    }
}

extension ArraySlice<UInt8> {
    /// Whether these bytes contain `needle` (for telling notifications from replies).
    public func contains(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        var index = startIndex
        let last = endIndex - needle.count
        while index <= last {
            if self[index] == needle[0], self[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
