import BenchmarkSupport
import Glibc

/// Waits on many subscriber connections at once (`poll`) and notes, for each,
/// when its next complete line arrived: the moment that subscriber "has the
/// event". The time is taken as soon as `read` returns the line's end, before
/// anything looks at the bytes.
final class FanOutReader {
    private let subscribers: [LineSocket]
    private var descriptors: [pollfd]
    private var partial: [[UInt8]]
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    init(_ subscribers: [LineSocket]) throws {
        self.subscribers = subscribers
        partial = Array(repeating: [], count: subscribers.count)
        descriptors = subscribers.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
    }

    /// Waits until every subscriber has one more complete line; returns, per
    /// subscriber, the microseconds from `start` to its line, and checks that
    /// each line is a `view.changed` event.
    func nextLineEverywhere(since start: ContinuousClock.Instant) throws -> [Double] {
        var latencies = [Double](repeating: -1, count: subscribers.count)
        var missing = subscribers.count
        while missing > 0 {
            let ready = Glibc.poll(&descriptors, nfds_t(descriptors.count), 30_000)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { throw BenchmarkError.failed("\(missing) subscribers got no event within 30 s") }
            for index in descriptors.indices where descriptors[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(subscribers[index].descriptor, $0.baseAddress, $0.count) }
                let now = ContinuousClock.now
                guard count > 0 else { throw BenchmarkError.failed("subscriber \(index) was disconnected") }
                partial[index].append(contentsOf: chunk[..<count])
                guard latencies[index] < 0, let newline = partial[index].firstIndex(of: UInt8(ascii: "\n")) else { continue }
                let line = partial[index][..<newline]
                guard line.contains(Array(#""method":"view.changed""#.utf8)) else {
                    throw BenchmarkError.failed("subscriber \(index) got something else: \(String(decoding: line, as: UTF8.self))")
                }
                partial[index].removeFirst(newline + 1)
                latencies[index] = (now - start).microseconds
                missing -= 1
            }
        }
        return latencies
    }
}
