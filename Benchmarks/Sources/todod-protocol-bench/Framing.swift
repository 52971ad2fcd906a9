/// How a server's messages are delimited on the wire, so one reader can wait
/// for "the next whole message" from todod and from Redis alike.
enum Framing {
    /// todod: one JSON-RPC message per `\n`-ended line.
    case lines
    /// Redis: RESP values (`*` arrays of `$` bulk strings, `:` integers, …),
    /// each element `\r\n`-ended.
    case resp

    /// The length of the first whole message in `bytes`, or nil while it is
    /// still incomplete.
    func messageLength(in bytes: ArraySlice<UInt8>) -> Int? {
        switch self {
        case .lines:
            bytes.firstIndex(of: UInt8(ascii: "\n")).map { $0 - bytes.startIndex + 1 }
        case .resp:
            RESP.valueEnd(in: bytes, from: bytes.startIndex).map { $0 - bytes.startIndex }
        }
    }
}

/// The little of Redis's protocol (RESP2) the fan-out comparison needs.
enum RESP {
    /// A command as a RESP array of bulk strings, e.g. `PUBLISH channel payload`.
    static func command(_ arguments: [[UInt8]]) -> [UInt8] {
        var bytes = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            bytes += Array("$\(argument.count)\r\n".utf8) + argument + [13, 10]
        }
        return bytes
    }

    static func command(_ arguments: String...) -> [UInt8] {
        command(arguments.map { Array($0.utf8) })
    }

    /// Where the RESP value starting at `start` ends (one past its last byte),
    /// or nil if `bytes` does not hold all of it yet.
    static func valueEnd(in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard start < bytes.endIndex, let lineEnd = lineEnd(in: bytes, from: start) else { return nil }
        let number = Int(String(decoding: bytes[(start + 1)..<(lineEnd - 2)], as: UTF8.self)) ?? 0
        switch bytes[start] {
        case UInt8(ascii: "$"):
            guard number >= 0 else { return lineEnd }  // null bulk string
            let end = lineEnd + number + 2
            return end <= bytes.endIndex ? end : nil
        case UInt8(ascii: "*"):
            var next = lineEnd
            for _ in 0..<max(0, number) {
                guard let end = valueEnd(in: bytes, from: next) else { return nil }
                next = end
            }
            return next
        default:  // +simple, -error, :integer
            return lineEnd
        }
    }

    /// One past the `\r\n` ending the line that starts at `start`.
    private static func lineEnd(in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.endIndex {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index + 2 }
            index += 1
        }
        return nil
    }
}
