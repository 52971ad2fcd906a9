import Foundation

/// One line a client sent: a request, a batch of them, or nothing.
public enum IncomingLine: Sendable {
    case request(Result<IncomingRequest, IncomingRequest.Rejection>)
    case batch([Result<IncomingRequest, IncomingRequest.Rejection>])
    /// Whitespace only: allowed between requests, and skipped.
    case blank

    public static func parse(_ line: Data) -> IncomingLine {
        if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
            return .blank
        }
        return .request(IncomingRequest.parse(line))
    }
}
