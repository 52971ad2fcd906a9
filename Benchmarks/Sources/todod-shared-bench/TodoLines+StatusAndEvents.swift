import BenchmarkSupport
import Foundation

/// The lines only this benchmark sends and reads: the revision an instance
/// serves, and the events its subscriber gets. Answers are parsed with
/// `JSONSerialization` only after their arrival time is taken, so the
/// parsing is never part of a figure.
extension TodoLines {
    static func status(id: Int) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"server.status"}"#.utf8) + [10]
    }

    /// The main view with only `itemsLeft` watched: what
    /// `todoctl watch --format '{itemsLeft}'` (a status bar) subscribes to.
    static func subscribeItemsLeft(id: Int) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"view.subscribe","params":{"view":"main","properties":["itemsLeft"]}}"#.utf8)
            + [10]
    }

    static let viewChanged = Array(#""method":"view.changed""#.utf8)

    /// The line as a JSON object, or a failure quoting it.
    static func object(_ line: ArraySlice<UInt8>) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
            throw BenchmarkError.failed("todod sent a line that is not a JSON object: \(quoted(line))")
        }
        return object
    }

    /// The `revision` of a `server.status` reply.
    static func statusRevision(_ line: ArraySlice<UInt8>) throws -> Int {
        guard let result = try object(line)["result"] as? [String: Any], let revision = result["revision"] as? Int else {
            throw BenchmarkError.failed("server.status gave no revision: \(quoted(line))")
        }
        return revision
    }
}

extension LineSocket {
    /// `server.status` on this connection, waiting for its reply: the revision
    /// the instance serves. Nothing else may be unanswered on the connection.
    func statusRevision() throws -> Int {
        try send(TodoLines.status(id: 0))
        while true {
            let line = try readLine()
            if line.contains(TodoLines.result) || line.contains(Array(#""error""#.utf8)) { return try TodoLines.statusRevision(line) }
        }
    }
}
