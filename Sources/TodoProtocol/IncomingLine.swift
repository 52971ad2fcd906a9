import FoundationEssentials

/// What one line from a client holds: a request, a batch of them, or nothing.
///
/// The line is read in one pass (`JSONScanner`): the whole line is checked
/// and each request's envelope found, without building a tree; each
/// request's parameters stay bytes until `decodeParams` decodes them.
///
/// The caller answers as JSON-RPC 2.0 says:
/// - `.request(.failure(rejection))`: one reply, the rejection's error with
///   its id (`null` when it could not be read): a line that is not JSON
///   (-32700), an empty batch `[]` or a value that is not a request (-32600).
/// - `.request(.success(request))`: carried out; answered unless it is a
///   notification (no `id` member), whatever happens to it.
/// - `.batch(members)`: each member carried out in order as if it came on
///   its own line, and one line holding the array of the replies (in member
///   order) — or nothing at all when every member was a notification.
/// - `.blank`: nothing to do (whitespace only, allowed between messages).
public enum IncomingLine: Sendable {
    case request(Result<IncomingRequest, IncomingRequest.Rejection>)
    /// Never empty: `[]` is a single invalid request.
    case batch([Result<IncomingRequest, IncomingRequest.Rejection>])
    case blank

    /// Reads a line without its `\n` (a `\r` before it is whitespace).
    /// Takes any bytes, e.g. a NIO `ByteBuffer`'s `readableBytesView`, and
    /// reads them in place when they are contiguous (they are for `Data`,
    /// `[UInt8]` and `ByteBufferView`).
    public static func parse(_ line: some Collection<UInt8>) -> IncomingLine {
        parse(line, batches: true)
    }

    /// Reads a line held in memory without copying it.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> IncomingLine {
        read(bytes, batches: true)
    }

    /// Whether the line is whitespace only (or empty): skipped, not answered.
    public static func isBlank(_ line: some Collection<UInt8>) -> Bool {
        line.allSatisfy(JSONScanner.isWhitespace)
    }

    static func parse(_ line: some Collection<UInt8>, batches: Bool) -> IncomingLine {
        if let parsed = line.withContiguousStorageIfAvailable({ read(UnsafeRawBufferPointer($0), batches: batches) }) {
            return parsed
        }
        return Array(line).withUnsafeBytes { read($0, batches: batches) }
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, batches: Bool) -> IncomingLine {
        guard let first = bytes.first(where: { !JSONScanner.isWhitespace($0) }) else { return .blank }
        // A batch's members are one level down, and their envelopes two.
        let isBatch = batches && first == UInt8(ascii: "[")
        let scan: JSONScanner.Scan
        do {
            scan = try JSONScanner.scan(bytes, recordingDepth: isBatch ? 2 : 1)
        } catch {
            return .request(.failure(.init(id: nil, error: .parseError(error))))
        }
        switch scan.kind {
        case .object:
            return .request(IncomingRequest.read(scan.members, in: bytes))
        case .array where isBatch:
            return batch(scan.members, in: bytes)
        case let kind:
            return .request(.failure(.init(id: nil, error: .invalidRequest("expected an object, got \(kind.typeName)"))))
        }
    }

    /// The members of a batch, each read like a line of its own.
    private static func batch(_ members: [JSONScanner.Member], in bytes: UnsafeRawBufferPointer) -> IncomingLine {
        // Members of the batch are at the top (parent -1); theirs point to them.
        var requests: [Result<IncomingRequest, IncomingRequest.Rejection>] = []
        var index = 0
        while index < members.count {
            let member = members[index]
            var next = index + 1
            while next < members.count && members[next].parent == index { next += 1 }
            if member.kind == .object {
                requests.append(IncomingRequest.read(members[index + 1..<next], in: bytes))
            } else {
                requests.append(
                    .failure(.init(id: nil, error: .invalidRequest("batch member \(requests.count) is not a request object: expected an object, got \(member.kind.typeName)"))))
            }
            index = next
        }
        guard !requests.isEmpty else {
            return .request(.failure(.init(id: nil, error: .invalidRequest("an empty batch ([]) holds no request"))))
        }
        return .batch(requests)
    }
}
