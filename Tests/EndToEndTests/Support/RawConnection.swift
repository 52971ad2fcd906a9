import Foundation

/// A plain Unix-socket connection that sends and reads raw lines, so tests
/// can say things no well-behaved client would (bad JSON, huge lines) and see
/// exactly what the daemon answers. Independent of the project's own client.
final class RawConnection {
    private let descriptor: Int32
    private var isClosed = false
    private var pending = Data()

    /// The `server.hello` line todod sent first (nil when not read).
    private(set) var greeting: String?

    /// Connects and, with `readGreeting`, reads the `server.hello` line every
    /// connection starts with, so a test's reads begin with its own replies.
    convenience init(path: String, readGreeting: Bool) throws {
        try self.init(path: path)
        if readGreeting {
            greeting = try readLine()
            guard greeting?.contains(#""method":"server.hello""#) == true else {
                throw TestFailure("expected server.hello first, got \(greeting ?? "nothing")")
            }
        }
    }

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket() failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8.prefix($0.count - 1)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            // Through close(), not Glibc.close: deinit runs even though init
            // throws, and must not close the number a second time.
            close()
            throw TestFailure("connect to \(path) failed: \(reason)")
        }
    }

    /// Closes once. A second close would hit whatever file another test was
    /// given the same descriptor number for in the meantime.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }

    deinit { close() }

    func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    func send(_ data: Data) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                guard written > 0 else { throw TestFailure("send failed: \(String(cString: strerror(errno)))") }
                offset += written
            }
        }
    }

    /// The next line, or `nil` when the daemon closed the connection first.
    func readLine(timeout: Duration = .seconds(20)) throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                pending.removeSubrange(pending.startIndex...newline)
                return String(decoding: line, as: UTF8.self)
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw TestFailure("no line from todod within \(timeout)") }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&poller, 1, max(1, milliseconds)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            pending.append(contentsOf: chunk[0..<count])
        }
    }

    /// Reads the next line as a JSON object.
    func readMessage(timeout: Duration = .seconds(20)) throws -> [String: Any] {
        guard let line = try readLine(timeout: timeout) else { throw TestFailure("todod closed the connection") }
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw TestFailure("not a JSON object: \(line)")
        }
        return object
    }
}

extension Dictionary where Key == String, Value == Any {
    var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
    var errorName: String? { ((self["error"] as? [String: Any])?["data"] as? [String: Any])?["name"] as? String }
    var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
    var result: [String: Any]? { self["result"] as? [String: Any] }
}
