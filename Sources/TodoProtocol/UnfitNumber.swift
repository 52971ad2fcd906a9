import FoundationEssentials

/// The number in a request's parameters that did not fit its parameter.
///
/// Foundation's `JSONDecoder` (swift-foundation, as of Swift 6.3) reports a
/// number that does not fit the type asked for — `99999999999999999999999` or
/// `1.5` for an `Int64`, `1e400` for anything — as "The given data was not
/// valid JSON." with an empty coding path, so the error cannot say which
/// parameter it was. The bytes were valid JSON (the scanner checked them), so
/// such an error can only come from a number; this finds which one, on the
/// error path only: the numbers not written as an Int64 integer are the
/// suspects, and a binary search over "replace the suspects from the k-th on
/// with 0 and decode again" finds the first one, in document order, whose
/// replacement the decode needs (about log₂ of the suspects' count decodes).
struct UnfitNumber: CustomStringConvertible {
    /// Where it is, as `DecodingErrorText` words paths: `"id"`.
    let path: String
    let text: String

    var description: String {
        let shown = text.count <= 40 ? text : text.prefix(40) + "…"
        return "\(path): \(shown) does not fit: \(reason)"
    }

    private var reason: String {
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            return "integers here are from \(Int64.min) to \(Int64.max)"
        }
        if let number = Double(text), number.isFinite, number != number.rounded(.towardZero) {
            return "it is not a whole number"
        }
        return "it is out of range"
    }

    /// The unfit number that made decoding `json` as `P` fail, or nil when
    /// no number explains the failure.
    static func find<P: Decodable>(decoding type: P.Type, in json: Data, with decoder: JSONDecoder) -> UnfitNumber? {
        let suspects = json.withUnsafeBytes { Self.suspects(in: $0) }
        func decodes(replacingFrom first: Int) -> Bool {
            var patched = Data()
            patched.reserveCapacity(json.count)
            var copied = 0
            for suspect in suspects[first...] {
                patched.append(json[json.startIndex + copied..<json.startIndex + suspect.range.lowerBound])
                patched.append(UInt8(ascii: "0"))
                copied = suspect.range.upperBound
            }
            patched.append(json[(json.startIndex + copied)...])
            do {
                _ = try decoder.decode(P.self, from: patched)
                return true
            } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
                return false
            } catch {
                return true  // failing for another reason: the numbers are no longer the problem
            }
        }
        guard !suspects.isEmpty, decodes(replacingFrom: 0) else { return nil }
        // decodes(replacingFrom: low) holds, and not for `high` (nothing replaced).
        var (low, high) = (0, suspects.count)
        while high - low > 1 {
            let middle = (low + high) / 2
            if decodes(replacingFrom: middle) { low = middle } else { high = middle }
        }
        let culprit = suspects[low]
        let text = json.withUnsafeBytes { String(decoding: $0[culprit.range], as: UTF8.self) }
        return UnfitNumber(path: DecodingErrorText.path(culprit.path), text: text)
    }

    private struct Suspect {
        var path: [PathKey]
        var range: Range<Int>
    }

    /// Every number in valid JSON `bytes` not written as an integer within
    /// Int64 (those always fit an integer parameter), with its path.
    private static func suspects(in bytes: UnsafeRawBufferPointer) -> [Suspect] {
        struct Level {
            var isObject: Bool
            var key = ""
            var index = 0
        }
        var levels: [Level] = []
        var suspects: [Suspect] = []
        var expectingKey = false
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                levels.append(Level(isObject: byte == UInt8(ascii: "{")))
                expectingKey = byte == UInt8(ascii: "{")
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                levels.removeLast()
                position += 1
            case UInt8(ascii: ","):
                if levels[levels.count - 1].isObject { expectingKey = true } else { levels[levels.count - 1].index += 1 }
                position += 1
            case UInt8(ascii: "\""):
                let (contents, hasEscapes) = JSONStringText.extent(in: bytes, openingQuoteAt: position)
                position = contents.upperBound
                if expectingKey {
                    levels[levels.count - 1].key = JSONStringText.decode(bytes, contents, hasEscapes: hasEscapes)
                    expectingKey = false
                }
                position += 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = position
                while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
                if Int64(String(decoding: bytes[start..<position], as: UTF8.self)) == nil {
                    let path = levels.map { $0.isObject ? PathKey(stringValue: $0.key) : PathKey(intValue: $0.index) }
                    suspects.append(Suspect(path: path, range: start..<position))
                }
            default:
                position += 1  // whitespace, ':', and the letters of true, false and null
            }
        }
        return suspects
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    private struct PathKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            self.stringValue = String(intValue)
            self.intValue = intValue
        }
    }
}
