import BenchmarkSupport
import Foundation

/// A subscriber's connection, read on a thread of its own that does nothing
/// else: it blocks in `read`, so the moment a `view.changed` line is
/// complete is taken as soon as the kernel hands it over, whatever the
/// editing thread is doing. Each event is filed under the request that
/// caused it (`cause.request`, the id the editor sent on the other
/// instance), which is how the editor finds the event for its edit.
///
/// It also checks what the protocol promises every subscription: one event
/// per revision, revisions gap-free and increasing, no `reset`. A missing or
/// reset event is a lost event, and fails the run with what was seen.
final class EventRecorder: @unchecked Sendable {
    struct Arrival {
        var revision: Int
        var at: ContinuousClock.Instant
        /// `cause.instance`: where the edit was made.
        var instance: String?
    }

    private let connection: LineSocket
    private let condition = NSCondition()
    private var arrivals: [Int: Arrival] = [:]
    private var lastRevision: Int
    private var failure: String?
    private var finished = false
    /// Events seen, for the report.
    private(set) var eventCount = 0

    /// `connection` has just had its `view.subscribe` reply, which said `revision`.
    init(connection: LineSocket, subscribedAt revision: Int) {
        self.connection = connection
        lastRevision = revision
    }

    func start() {
        Thread.detachNewThread { self.readEvents() }
    }

    /// The reading thread stops at the next line, or when the instance closes
    /// the connection; neither is then a failure.
    func finish() {
        condition.withLock { finished = true }
    }

    private func readEvents() {
        while true {
            let line: ArraySlice<UInt8>
            do {
                line = try connection.readLine()
            } catch {
                fail("the subscriber's connection failed: \(error)")
                return
            }
            let now = ContinuousClock.now
            guard line.contains(TodoLines.viewChanged) else { continue }
            guard let object = try? TodoLines.object(line), let params = object["params"] as? [String: Any],
                let revision = params["revision"] as? Int
            else {
                fail("unreadable view.changed: \(TodoLines.quoted(line))")
                return
            }
            let cause = params["cause"] as? [String: Any]
            let stop = condition.withLock {
                if finished { return true }
                eventCount += 1
                if params["reset"] as? Bool == true {
                    failure = "the subscriber got a reset event at revision \(revision) (events were dropped): \(TodoLines.quoted(line))"
                } else if revision != lastRevision + 1 {
                    failure = "the subscriber's events skipped from revision \(lastRevision) to \(revision): \(TodoLines.quoted(line))"
                }
                lastRevision = revision
                if let request = cause?["request"] as? Int {
                    arrivals[request] = Arrival(revision: revision, at: now, instance: cause?["instance"] as? String)
                }
                condition.broadcast()
                return failure != nil
            }
            if stop { return }
        }
    }

    private func fail(_ message: String) {
        condition.withLock {
            if !finished && failure == nil { failure = message }
            condition.broadcast()
        }
    }

    /// Waits for the event caused by request `id` (at most `timeout`) and
    /// forgets it.
    func arrival(ofRequest id: Int, timeout: Duration = .seconds(10)) throws -> Arrival {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
        return try condition.withLock {
            while true {
                if let failure { throw BenchmarkError.failed(failure) }
                if let arrival = arrivals.removeValue(forKey: id) { return arrival }
                guard condition.wait(until: deadline) else {
                    throw BenchmarkError.failed(
                        "no view.changed for request \(id) within \(timeout) (last revision seen \(lastRevision), \(eventCount) events)")
                }
            }
        }
    }
}
