import BenchmarkSupport
import Glibc

/// The floor: a Unix socket server that writes back every byte it reads, so
/// a client's line comes back as the same line. It runs in its own process
/// (`todod-protocol-bench --echo-server PATH`), as todod does, so the floor
/// pays the same process switches; it serves one connection at a time with
/// plain blocking `read` and `write`, which is as little as a server can do.
enum EchoServer {
    static func run(path: String) throws -> Never {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchmarkError.system("socket", errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw BenchmarkError.system("bind/listen \(path)", errno) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            while true {
                let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                var offset = 0
                while offset < count {
                    let written = buffer.withUnsafeBytes { write(connection, $0.baseAddress! + offset, count - offset) }
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(connection)
        }
    }
}
