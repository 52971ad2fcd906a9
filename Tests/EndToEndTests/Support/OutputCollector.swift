import Foundation
import Synchronization

/// Collects what a child process writes to a pipe, as it arrives, so a test
/// can wait for a line to appear (with a generous timeout, never a fixed sleep).
final class OutputCollector: Sendable {
    let pipe = Pipe()
    private let buffer = Mutex(Data())

    init() {
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            if chunk.isEmpty {
                handle.readabilityHandler = nil
            } else {
                self?.buffer.withLock { $0.append(chunk) }
            }
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
