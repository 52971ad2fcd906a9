/// The todod protocol lines more than one benchmark sends, and the check of
/// a reply. Requests are written by hand, as `todoctl` would send them, so
/// no encoder's cost is part of a figure; a reply is looked at only for
/// `"result"` unless a benchmark needs more (it extends this type then).
public enum TodoLines {
    public static func add(id: Int, title: String) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"todo.add","params":{"title":"\#(title)"}}"#.utf8) + [10]
    }

    public static let result = Array(#""result""#.utf8)

    /// Fails unless `line` is a successful reply; `what` names the request
    /// in the failure ("an edit").
    public static func expectResult(_ line: ArraySlice<UInt8>, _ what: String) throws {
        guard line.contains(result) else { throw BenchmarkError.failed("todod refused \(what): \(quoted(line))") }
    }

    /// The start of `line`, enough to say what went wrong without flooding the terminal.
    public static func quoted(_ line: ArraySlice<UInt8>) -> String {
        String(decoding: line.prefix(400), as: UTF8.self)
    }
}
