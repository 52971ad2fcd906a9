import Foundation
import Synchronization

/// Collects what a child process writes, as it arrives, so a test can wait
/// for a line to appear (with a generous timeout, never a fixed sleep).
///
/// It owns its pipe outright: close-on-exec, so children started by other
/// tests in parallel do not inherit it; read by one thread with plain
/// read(2); each end closed exactly once. Tests run in parallel in one
/// process, so a descriptor closed twice would close whatever another test
/// was given the same number for.
final class OutputCollector: Sendable {
    private let readDescriptor: Int32
    /// The end a child writes to (dup2'd onto its stdout or stderr).
    let writeDescriptor: Int32
    private let buffer = Mutex(Data())
    private let writeEndClosed = Atomic<Bool>(false)
    private let endOfFile = Atomic<Bool>(false)

    init() {
        var descriptors: [Int32] = [0, 0]
        precondition(pipe(&descriptors) == 0, "pipe failed")
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        // The thread holds the collector until end-of-file, then lets go.
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(readDescriptor, &chunk, chunk.count)
                if count > 0 {
                    self.buffer.withLock { $0.append(contentsOf: chunk[0..<count]) }
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            close(readDescriptor)
            self.endOfFile.store(true, ordering: .releasing)
        }
        thread.start()
    }

    /// Closes this process's copy of the write end once the child has its own,
    /// so the reader sees end-of-file when the child exits.
    func processStarted() {
        if !writeEndClosed.exchange(true, ordering: .relaxed) {
            close(writeDescriptor)
        }
    }

    /// Waits (up to 10 s) until every writer has closed and everything is read.
    func waitForEndOfFile() async {
        let deadline = ContinuousClock.now + .seconds(10)
        while !endOfFile.load(ordering: .acquiring) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    var text: String { buffer.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits until `condition` holds for the collected text; returns whether it did.
    func wait(timeout: Duration = .seconds(20), until condition: (String) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(text) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(text)
    }
}
