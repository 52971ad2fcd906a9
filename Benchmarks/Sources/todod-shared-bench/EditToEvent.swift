import BenchmarkSupport
import Foundation

/// From an edit on one instance to the event on another instance's
/// subscriber: instances A and B on one list, a client on A sending
/// `todo.add` one at a time, and on B a subscriber to the main view's
/// `itemsLeft` (what `todoctl watch --format '{itemsLeft}'` in a status bar
/// subscribes to: every add changes it, so every add is one small event,
/// and the figure is the sharing path's, not the size of a row list).
///
/// Each sample times, from sending the add on A, both A's own reply (the
/// edit committed in PostgreSQL) and the arrival of B's `view.changed` for
/// it (A's commit, PostgreSQL's NOTIFY to B, B reading the change log and
/// pushing the event): the next add is sent only once both are in. The
/// samples are taken in turns, so that `between` (pgbench's one-client
/// transaction times, the anchor) sees the same moments of the machine.
struct EditToEvent {
    let list: SharedList
    var warmUp = 100
    var turns = 4
    var perTurn = 500

    struct Result {
        /// Milliseconds from sending the add: to A's reply, to B's event.
        var replies: [Double] = []
        var events: [Double] = []
        /// The revisions the events carried, first to last.
        var revisions: ClosedRange<Int>?
    }

    func run(between: () throws -> Void) throws -> Result {
        let a = try list.start("A")
        let b = try list.start("B")
        defer {
            a.stop()
            b.stop()
        }
        let subscriber = try b.connect()
        try subscriber.send(TodoLines.subscribeItemsLeft(id: 1))
        let subscribed = try subscriber.readLine()
        guard let reply = try TodoLines.object(subscribed)["result"] as? [String: Any], let revision = reply["revision"] as? Int else {
            throw BenchmarkError.failed("view.subscribe on B failed: \(TodoLines.quoted(subscribed))")
        }
        let events = EventRecorder(connection: subscriber, subscribedAt: revision)
        events.start()
        defer { events.finish() }

        let editor = try a.connect()
        var result = Result()
        var nextID = 1
        var first: Int?
        var last = revision
        func sample() throws -> (reply: Double, event: Double) {
            let id = nextID
            nextID += 1
            let start = ContinuousClock.now
            try editor.send(TodoLines.add(id: id, title: "edit \(id)"))
            let line = try editor.readLine()
            let replied = ContinuousClock.now
            try TodoLines.expectResult(line, "todo.add on A")
            let arrival = try events.arrival(ofRequest: id)
            guard arrival.instance == "A" else {
                throw BenchmarkError.failed("B's event for request \(id) names instance \(arrival.instance ?? "none"), not A")
            }
            first = first ?? arrival.revision
            last = arrival.revision
            return ((replied - start).milliseconds, (arrival.at - start).milliseconds)
        }
        for _ in 0..<warmUp { _ = try sample() }
        for _ in 0..<turns {
            for _ in 0..<perTurn {
                let (reply, event) = try sample()
                result.replies.append(reply)
                result.events.append(event)
            }
            try between()
        }
        result.revisions = first.map { $0...last }
        // Every add is one revision, and B saw each: nothing else edits this list.
        let expected = (first ?? 0) + warmUp + turns * perTurn - 1
        guard last == expected, try b.connect().statusRevision() == last, try a.connect().statusRevision() == last else {
            throw BenchmarkError.failed("A and B disagree about the list's revision after the edits (B's events ended at \(last), expected \(expected))")
        }
        events.finish()
        let statuses = [a.stop(), b.stop()]
        guard statuses.allSatisfy({ $0 == 0 }) else {
            throw BenchmarkError.failed("A and B did not both stop cleanly on SIGTERM: exit statuses \(statuses)")
        }
        return result
    }
}
