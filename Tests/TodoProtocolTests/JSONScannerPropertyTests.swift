import CanonicalJSON
import Foundation
import TestSupport
import Testing

@testable import TodoProtocol

/// Random JSON texts, written every way JSON allows (whitespace, escapes,
/// number forms), next to the value they stand for. Keys are unique by
/// construction, so every text is one Foundation accepts too.
struct JSONTextGenerator {
    var random: SeededRandom

    mutating func value(depth: Int) -> (JSONValue, String) {
        let choice = depth <= 0 ? Int.random(in: 0..<5, using: &random) : Int.random(in: 0..<7, using: &random)
        switch choice {
        case 0: return (.null, "null")
        case 1:
            let value = Bool.random(using: &random)
            return (.bool(value), value ? "true" : "false")
        case 2: return integer()
        case 3: return double()
        case 4:
            let (text, json) = string()
            return (.string(text), json)
        case 5:
            var values: [JSONValue] = []
            var texts: [String] = []
            for _ in 0..<Int.random(in: 0..<5, using: &random) {
                let (value, text) = value(depth: depth - 1)
                values.append(value)
                texts.append(space() + text + space())
            }
            return (.array(values), "[" + space() + texts.joined(separator: ",") + "]")
        default:
            var members: [String: JSONValue] = [:]
            var texts: [String] = []
            for _ in 0..<Int.random(in: 0..<5, using: &random) {
                let (key, keyText) = string()
                guard members[key] == nil else { continue }
                let (value, text) = value(depth: depth - 1)
                members[key] = value
                texts.append(space() + keyText + space() + ":" + space() + text + space())
            }
            return (.object(members), "{" + space() + texts.joined(separator: ",") + "}")
        }
    }

    mutating func space() -> String {
        String((0..<Int.random(in: 0...2, using: &random)).map { _ in [" ", "\t", "\r", "\n"].randomElement(using: &random)! })
    }

    mutating func integer() -> (JSONValue, String) {
        let value: Int64 = Bool.random(using: &random) ? .random(in: -1000...1000, using: &random) : .random(in: .min ... .max, using: &random)
        return (.integer(value), String(value))
    }

    mutating func double() -> (JSONValue, String) {
        var value = Double(bitPattern: random.next())
        while !value.isFinite { value = Double(bitPattern: random.next()) }
        if Bool.random(using: &random) { value = Double.random(in: -1e6...1e6, using: &random) }
        var text = "\(value)"  // "1.5", "1e-05", "-1.2345e+300": all JSON
        if Bool.random(using: &random) { text = text.replacingOccurrences(of: "e", with: "E") }
        return (.double(value), text)
    }

    static let scalars: [Unicode.Scalar] =
        Array("abcXYZ 019_-/".unicodeScalars) + ["\"", "\\", "\u{0}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\u{7F}", "é",
            "\u{2028}", "\u{E000}", "\u{FFFF}", "€", "𝄞", "\u{10FFFF}"]

    /// A string and its literal, each character written raw or escaped.
    mutating func string() -> (String, String) {
        var text = ""
        var json = "\""
        for _ in 0..<Int.random(in: 0..<8, using: &random) {
            let scalar = Self.scalars.randomElement(using: &random)!
            text.unicodeScalars.append(scalar)
            let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
            if !mustEscape && Bool.random(using: &random) {
                json.unicodeScalars.append(scalar)
            } else if let short = ["\"": "\\\"", "\\": "\\\\", "\u{8}": "\\b", "\u{C}": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "/": "\\/"][scalar],
                Bool.random(using: &random)
            {
                json += short
            } else {
                for unit in String(scalar).utf16 {
                    let hex = JSONReaderHex.hex(unit)
                    json += "\\u" + (Bool.random(using: &random) ? hex : hex.lowercased())
                }
            }
        }
        return (text, json + "\"")
    }
}

enum JSONReaderHex {
    static func hex(_ unit: UInt16) -> String {
        let text = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - text.count) + text
    }
}

@Suite struct JSONScannerPropertyTests {
    private static func scanError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        bytes.withUnsafeBytes { buffer -> JSONSyntaxError? in
            do throws(JSONSyntaxError) {
                _ = try JSONScanner.scan(buffer)
                return nil
            } catch {
                return error
            }
        }
    }

    private static func foundationError(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            return nil
        } catch {
            return (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        }
    }

    /// Valid JSON written every way: Foundation accepts it, so must the
    /// scanner, and the tree built from it is the value it was written from.
    @Test func validJSONIsReadAsFoundationReadsIt() throws {
        var generator = JSONTextGenerator(random: SeededRandom(seed: 12))
        for _ in 0..<3000 {
            let (value, text) = generator.value(depth: 6)
            let json = generator.space() + text + generator.space()
            let bytes = Array(json.utf8)
            #expect(Self.foundationError(bytes) == nil, "Foundation refused \(json)")
            #expect(Self.scanError(bytes) == nil, "\(json): \(Self.scanError(bytes)?.description ?? "")")
            #expect(try JSONValue(parsing: bytes) == value, "\(json)")

            // As a request's params, read back the same.
            guard case .object = value else { continue }
            let line = #"{"jsonrpc":"2.0","params":"# + json + #","id":1,"method":"x"}"#
            guard case .request(.success(let request)) = IncomingLine.parse(Data(line.utf8)) else {
                Issue.record("not read: \(line)")
                continue
            }
            #expect(try request.decodeParams(JSONValue.self) == value)
            #expect(request.paramsJSON == Data(json.utf8).trimmingWhitespace())
        }
    }

    static let seeds: [String] = [
        #"{"jsonrpc":"2.0","id":1,"method":"todo.add","params":{"title":"buy milk","due":"2026-12-24"}}"#,
        #"{"jsonrpc":"2.0","id":"a\"\u00e9","method":"todo.setDone","params":{"id":12,"done":true}}"#,
        #"{"jsonrpc":"2.0","method":"todo.undo"}"#,
        #"[{"jsonrpc":"2.0","id":1.0,"method":"todo.remove","params":{"id":3}},{"jsonrpc":"2.0","method":"x","params":[1,2]},7]"#,
        #"{"jsonrpc":"2.0","id":null,"method":"transaction","params":{"commands":[{"method":"todo.add","params":{"title":"é 𝄞"}}]}}"#,
    ]

    static let interesting: [UInt8] =
        Array(#"{}[]",:\ 0123456789eE.-+tfnul/'"#.utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xA9, 0xED, 0xA0, 0xEF, 0xBB, 0xF0, 0xF4, 0x90, 0xFE, 0xFF]

    /// Random mutations of valid request lines: every one is read without a
    /// crash and classified; every reply to it is one line of valid JSON; and
    /// the scanner agrees with Foundation except where it is meant to be
    /// stricter (duplicate keys, trailing commas, a byte order mark) or where
    /// Foundation cannot hold a number that is valid JSON.
    @Test func mutatedLinesAreAlwaysClassified() throws {
        var random = SeededRandom(seed: 2026)
        var counts = (blank: 0, requests: 0, rejections: 0, batches: 0, stricter: 0, numbers: 0)
        for _ in 0..<10_000 {
            var bytes = Array(Self.seeds.randomElement(using: &random)!.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<max(1, bytes.count), using: &random)
                let byte = Bool.random(using: &random) ? Self.interesting.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
                let closers = bytes.indices.filter { bytes[$0] == UInt8(ascii: "}") || bytes[$0] == UInt8(ascii: "]") }
                let commas = bytes.indices.filter { bytes[$0] == UInt8(ascii: ",") }
                switch Int.random(in: 0..<8, using: &random) {
                case 6 where !closers.isEmpty:  // a trailing comma
                    bytes.insert(UInt8(ascii: ","), at: closers.randomElement(using: &random)!)
                case 7 where !commas.isEmpty:  // a member or element again: ,"id":1 → ,"id":1,"id":1
                    let comma = commas.randomElement(using: &random)!
                    let end = bytes[(comma + 1)...].firstIndex { [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains($0) } ?? bytes.count
                    bytes.insert(contentsOf: bytes[comma..<end], at: end)
                case 0 where !bytes.isEmpty: bytes[at] = byte
                case 1: bytes.insert(byte, at: min(at, bytes.count))
                case 2 where !bytes.isEmpty: bytes.remove(at: at)
                case 3 where !bytes.isEmpty:
                    let end = min(bytes.count, at + Int.random(in: 1...12, using: &random))
                    bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0...bytes.count, using: &random))
                case 4: bytes.removeSubrange(min(at, bytes.count)...)
                default: if at + 1 < bytes.count { bytes.swapAt(at, at + 1) }
                }
            }

            var replies: [Data] = []
            switch IncomingLine.parse(bytes) {
            case .blank:
                counts.blank += 1
            case .request(let read):
                if case .success = read { counts.requests += 1 } else { counts.rejections += 1 }
                replies += Self.replies(to: [read])
            case .batch(let members):
                #expect(!members.isEmpty)
                counts.batches += 1
                replies.append(MessageEncoding.batch(Self.replies(to: members)))
            }
            for reply in replies where !reply.isEmpty {
                #expect(Self.foundationError(Array(reply)) == nil, "reply \(String(decoding: reply, as: UTF8.self))")
                #expect(reply.last == 0x0A && !reply.dropLast().contains(0x0A))
            }

            guard !IncomingLine.isBlank(bytes) else { continue }
            let ours = Self.scanError(bytes)
            let foundation = Self.foundationError(bytes)
            if let ours, foundation == nil {
                let stricter = ["appears twice", "trailing comma", "byte order mark"].contains { ours.problem.contains($0) }
                #expect(stricter, "Foundation accepts what the scanner refuses: \(ours) in \(bytes)")
                counts.stricter += 1
            } else if ours == nil, let foundation {
                #expect(foundation.contains("not representable"), "the scanner accepts what Foundation refuses (\(foundation)): \(bytes)")
                counts.numbers += 1
            }
        }
        // The mutations reach every outcome, or this test proves little.
        #expect(counts.requests > 300 && counts.rejections > 5000 && counts.batches > 100 && counts.stricter > 500, "\(counts)")
        print("mutated lines: \(counts)")
    }

    /// What the daemon would write for each outcome, decoding params as a
    /// few methods' types would (which also runs the unfit-number search).
    private static func replies(to reads: [Result<IncomingRequest, IncomingRequest.Rejection>]) -> [Data] {
        reads.compactMap { read -> Data? in
            switch read {
            case .failure(let rejection):
                return MessageEncoding.error(id: rejection.id, rejection.error)
            case .success(let request):
                _ = try? request.decodeParams(JSONValue.self)
                _ = try? request.decodeParams(SetTodoDone.Params.self)
                _ = try? request.decodeParams(Transaction.Params.self)
                do throws(RPCError) {
                    let params = try request.decodeParams(AddTodo.Params.self, parameterNames: ["title", "due"])
                    return request.id.map { MessageEncoding.response(id: $0, result: params) }
                } catch {
                    return request.id.map { MessageEncoding.error(id: $0, error) }
                }
            }
        }
    }
}

extension Data {
    fileprivate func trimmingWhitespace() -> Data {
        Data(drop(while: JSONScanner.isWhitespace).reversed().drop(while: JSONScanner.isWhitespace).reversed())
    }
}
