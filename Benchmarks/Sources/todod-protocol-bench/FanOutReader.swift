import BenchmarkSupport
import Glibc

/// Waits on many subscriber connections at once (`poll`) and notes, for each,
/// when its next whole message arrived: the moment that subscriber "has the
/// event". The time is taken as soon as `read` returns the message's last
/// byte, before anything looks at the bytes. The same code reads todod's
/// `view.changed` lines and Redis's RESP `message` pushes, so the two servers
/// are timed the same way.
final class FanOutReader {
    private let subscribers: [LineSocket]
    private let framing: Framing
    private let marker: [UInt8]
    private var descriptors: [pollfd]
    private var partial: [[UInt8]]
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    /// The size of the last message read, to publish the same size to Redis.
    private(set) var messageBytes = 0

    /// `marker`: bytes every expected message contains (anything else fails the run).
    init(_ subscribers: [LineSocket], framing: Framing, marker: [UInt8]) throws {
        guard subscribers.allSatisfy({ $0.bufferedByteCount == 0 }) else {
            throw BenchmarkError.failed("a subscriber had unread bytes before the first event")
        }
        self.subscribers = subscribers
        self.framing = framing
        self.marker = marker
        partial = Array(repeating: [], count: subscribers.count)
        descriptors = subscribers.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
    }

    /// Waits (at most 30 s) until every subscriber has one more whole message;
    /// returns, per subscriber, the microseconds from `start` to its message.
    func nextMessageEverywhere(since start: ContinuousClock.Instant) throws -> [Double] {
        var latencies = [Double](repeating: -1, count: subscribers.count)
        var missing = subscribers.count
        let deadline = ContinuousClock.now + .seconds(30)
        while missing > 0 {
            let ready = Glibc.poll(&descriptors, nfds_t(descriptors.count), 1000)
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { throw BenchmarkError.system("poll", errno) }
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError.failed("\(missing) of \(subscribers.count) subscribers got no event within 30 s")
            }
            for index in descriptors.indices where descriptors[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(subscribers[index].descriptor, $0.baseAddress, $0.count) }
                let now = ContinuousClock.now
                guard count > 0 else { throw BenchmarkError.failed("subscriber \(index) was disconnected") }
                partial[index].append(contentsOf: chunk[..<count])
                guard latencies[index] < 0, let length = framing.messageLength(in: partial[index][...]) else { continue }
                let message = partial[index][..<length]
                guard message.contains(marker) else {
                    throw BenchmarkError.failed(
                        "subscriber \(index) got something else: \(String(decoding: message.prefix(300), as: UTF8.self))")
                }
                messageBytes = length
                partial[index].removeFirst(length)
                latencies[index] = (now - start).microseconds
                missing -= 1
            }
        }
        return latencies
    }
}
