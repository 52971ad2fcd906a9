/// Why a line is not JSON, and where.
///
/// `offset` counts bytes from 0 at the start of the line (without its
/// newline), so the author of a client can find the byte in what they sent;
/// `problem` says what was wrong there in words, without the offset.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public let offset: Int
    public let problem: String

    public init(offset: Int, _ problem: String) {
        self.offset = offset
        self.problem = problem
    }

    public var description: String { "at byte \(offset): \(problem)" }
}

extension RPCError {
    /// -32700 `protocol.parseError`, naming the byte and the problem:
    /// "The line is not valid JSON at byte 12: a trailing comma before '}'".
    public static func parseError(_ syntax: JSONSyntaxError) -> RPCError {
        RPCError(
            code: Code.parseError, name: "protocol.parseError",
            message: "The line is not valid JSON at byte \(syntax.offset): \(syntax.problem)")
    }
}
