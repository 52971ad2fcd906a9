import TodoClient

/// A request too long for todod's line limit because of the title in it,
/// said in the user's terms: how long the title is and how long it could
/// be, rather than how long a protocol line may be.
///
/// todod refuses a title longer than its own rule (a few hundred
/// characters) with a reason of its own; this is for a title so long that
/// todod would not even read the request, which todoctl therefore does not
/// send (`ClientError.requestTooLong`).
struct TitleTooLong: Error, CustomStringConvertible {
    /// The title's length in UTF-8 bytes.
    let bytes: Int
    /// The longest title, in bytes, that fits in the line beside the rest of
    /// the request (characters JSON escapes, such as quotes, count twice).
    let most: Int

    var description: String { "title too long: \(bytes) bytes; the most is \(most)" }

    /// Runs `send`, which sends a request carrying `title`, and turns its
    /// `requestTooLong` into a `TitleTooLong` when the title is what makes
    /// the request too long; when the rest of the request is too long on its
    /// own (a huge `--due`, say), the general error stands.
    static func naming<Result>(_ title: String, in send: () async throws -> Result) async throws -> Result {
        do {
            return try await send()
        } catch ClientError.requestTooLong(let lineBytes, let limit) {
            let bytes = title.utf8.count
            let rest = lineBytes - bytes
            guard rest < limit else { throw ClientError.requestTooLong(bytes: lineBytes, limit: limit) }
            throw TitleTooLong(bytes: bytes, most: limit - rest)
        }
    }
}
