import Foundation
import TestSupport
import Testing

@testable import CanonicalJSON

/// `CanonicalJSONEncoder` must write exactly what `JSONEncoder` writes with
/// sorted keys and unescaped slashes: the transcripts compare bytes, and a
/// client may hash a line. Each test compares the two on the same value.
@Suite struct CanonicalJSONEncoderTests {
    static let foundation: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func expectSameBytes<Value: Encodable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = String(decoding: try CanonicalJSONEncoder().encode(value), as: UTF8.self)
        let theirs = String(decoding: try Self.foundation.encode(value), as: UTF8.self)
        #expect(ours == theirs, sourceLocation: sourceLocation)
    }

    @Test func everyASCIICharacterAndSomeBeyondAreEscapedAsJSONEncoderDoes() throws {
        var text = ""
        for scalar in 0..<0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        text += "\u{85}\u{2028}\u{2029}é😀/"
        try expectSameBytes([text])
        try expectSameBytes(["key \"with\" \\ and \n": text])
    }

    @Test func numbersAreWrittenAsJSONEncoderWritesThem() throws {
        try expectSameBytes([Int64.min, Int64.max, 0, -1, 42])
        try expectSameBytes([UInt64.max])
        try expectSameBytes([30.0, 0.5, 1e20, 1e-7, -0.0, 123_456_789.125, 1.0 / 3, 1e16, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude])
        try expectSameBytes([Float(0.1), Float(3), Float(1e30)])
        var random = SeededRandom(seed: 7)
        let doubles = (0..<2_000).map { _ in Double(bitPattern: random.next()) }.filter(\.isFinite)
        try expectSameBytes(doubles)
    }

    @Test func aNumberJSONCannotHoldIsRefusedLikeJSONEncoderRefusesIt() {
        #expect(throws: EncodingError.self) { try CanonicalJSONEncoder().encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try CanonicalJSONEncoder().encode(["x": Double.infinity]) }
    }

    /// Declared out of alphabetical order, with an optional left out, a
    /// nested struct, an array of structs and a dictionary.
    struct Unsorted: Codable, Equatable {
        var zebra: String
        var apple: Int
        var missing: String?
        var present: Bool?
        var nested: Inner
        var list: [Inner]
        var table: [String: Int]
        var intKeys: [Int: String]
        var empty: [String]
    }

    struct Inner: Codable, Equatable {
        var b: Double
        var a: String?
    }

    @Test func keysAreSortedAtEveryLevelWhateverOrderTheyArriveIn() throws {
        let value = Unsorted(
            zebra: "z", apple: 1, missing: nil, present: false, nested: Inner(b: 2.5, a: "a"),
            list: [Inner(b: 1, a: nil), Inner(b: -3, a: "x")], table: ["b": 2, "a": 1, "B": 0, "é": 5, "aa": 3],
            intKeys: [10: "ten", 2: "two"], empty: [])
        try expectSameBytes(value)
        try expectSameBytes([value, value])
        try expectSameBytes(["outer": ["inner": value]])
    }

    /// Writes its own keys in reverse, a nested container, and null explicitly.
    struct HandWritten: Encodable {
        enum Keys: String, CodingKey { case c, b, a, nested, list }
        enum NestedKeys: String, CodingKey { case y, x }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encodeNil(forKey: .c)
            var nested = container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested)
            try nested.encode(1, forKey: .y)
            try nested.encode("x", forKey: .x)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(true)
            try list.encodeNil()
            var listed = list.nestedContainer(keyedBy: NestedKeys.self)
            try listed.encode(2, forKey: .x)
            try container.encode("b", forKey: .b)
            try container.encode(Int8(-1), forKey: .a)
        }
    }

    @Test func handWrittenEncodingsWithNestedContainersComeOutTheSame() throws {
        try expectSameBytes(HandWritten())
        try expectSameBytes([HandWritten()])
    }

    /// Asks for its container twice and writes from a wrapped value into it,
    /// as a message that adds a key to its body's keys does.
    struct Merged: Encodable {
        enum Keys: String, CodingKey { case subscription }
        var body: Inner
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(3, forKey: .subscription)
            try body.encode(to: encoder)
        }
    }

    @Test func aValueThatAsksForItsContainerTwiceIsOneObject() throws {
        try expectSameBytes(Merged(body: Inner(b: 1, a: "q")))
    }

    /// Encodes through a single-value container, as property wrappers do.
    struct Wrapped: Encodable {
        var value: Int?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let value { try container.encode([value]) } else { try container.encodeNil() }
        }
    }

    struct Empty: Encodable {}

    @Test func singleValuesWrappersAndEmptyValues() throws {
        try expectSameBytes(["a": Wrapped(value: 1), "b": Wrapped(value: nil)])
        try expectSameBytes(Empty())
        try expectSameBytes([Empty()])
        try expectSameBytes("top-level string")
        try expectSameBytes(12)
    }

    /// Writes to a container after its nested one: cannot be streamed, so the
    /// encoder hands the value to JSONEncoder, and the bytes still agree.
    struct Interleaved: Encodable {
        enum Keys: String, CodingKey { case a, b, c }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
            try container.encode(1, forKey: .b)
            try nested.encode(2, forKey: .c)
        }
    }

    struct Special: Encodable {
        var data = Data([0, 1, 2, 250])
        var url = URL(string: "https://example.com/a b")
        var decimal = Decimal(string: "12.50")!
    }

    struct Duplicated: Encodable {
        enum Keys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .b)
            try container.encode(2, forKey: .a)
            try container.encode(3, forKey: .b)
        }
    }

    @Test func whatCannotBeStreamedFallsBackToJSONEncoder() throws {
        try expectSameBytes(Interleaved())
        try expectSameBytes(["x": Interleaved()])
        try expectSameBytes(Special())
        try expectSameBytes(Duplicated())
    }

    /// The fall back must stay the exception: if everything fell back, every
    /// comparison above would pass and nothing would be faster.
    @Test func onlyWhatCannotBeStreamedFallsBack() throws {
        func streams<Value: Encodable>(_ value: Value) throws -> Bool {
            let encoder = StreamingEncoder(bytes: [], datesAsMilliseconds: false)
            try encoder.encodeTopLevel(value)
            return !encoder.needsFoundation
        }
        let unsorted = Unsorted(
            zebra: "z", apple: 1, missing: nil, present: true, nested: Inner(b: 1, a: nil), list: [Inner(b: 2, a: "a")],
            table: ["b": 1, "a": 2], intKeys: [3: "c"], empty: [])
        #expect(try streams(unsorted))
        #expect(try streams(HandWritten()))
        #expect(try streams(Merged(body: Inner(b: 1, a: "q"))))
        #expect(try streams(["a": Wrapped(value: 1), "b": Wrapped(value: nil)]))
        var random = SeededRandom(seed: 9)
        #expect(try streams((0..<50).map { _ in Tree.random(depth: 4, using: &random) }))
        #expect(try !streams(Interleaved()))
        #expect(try !streams(Special()))
        #expect(try !streams(Duplicated()))
    }

    @Test func datesAsMillisecondsAgreeWithJSONEncodersStrategy() throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        foundation.dateEncodingStrategy = .millisecondsSince1970
        let dates = ["a": Date(timeIntervalSince1970: 1_795_436_032.125), "b": Date(timeIntervalSince1970: 0)]
        let ours = try CanonicalJSONEncoder(datesAsMillisecondsSince1970: true).encode(dates)
        #expect(ours == Array(try foundation.encode(dates)))
        try expectSameBytes(dates)  // the default: as Date encodes itself
    }

    @Test func appendingWritesAfterWhatIsThere() throws {
        var bytes = Array("prefix:".utf8)
        try CanonicalJSONEncoder().encode(["b": 1, "a": 2], appendingTo: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"prefix:{"a":2,"b":1}"#)
        var fallback = Array("x".utf8)
        try CanonicalJSONEncoder().encode(Interleaved(), appendingTo: &fallback)
        #expect(String(decoding: fallback, as: UTF8.self) == "x" + String(decoding: try Self.foundation.encode(Interleaved()), as: UTF8.self))
    }

    /// A random JSON document (the package's own value type): objects are
    /// dictionaries, so their keys arrive in hash order and must be sorted.
    enum Tree {
        static func random(depth: Int, using random: inout SeededRandom) -> JSONValue {
            switch Int.random(in: 0..<(depth > 0 ? 7 : 5), using: &random) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &random))
            case 2: return .integer(Int64(bitPattern: random.next()) >> Int64.random(in: 0..<64, using: &random))
            case 3: return .double(Double.random(in: -1e6...1e6, using: &random))
            case 4: return .string(randomText(using: &random))
            case 5: return .array((0..<Int.random(in: 0..<5, using: &random)).map { _ in Tree.random(depth: depth - 1, using: &random) })
            default:
                var object: [String: JSONValue] = [:]
                for _ in 0..<Int.random(in: 0..<6, using: &random) {
                    object[randomText(using: &random)] = Tree.random(depth: depth - 1, using: &random)
                }
                return .object(object)
            }
        }

        static func randomText(using random: inout SeededRandom) -> String {
            var text = ""
            for _ in 0..<Int.random(in: 0..<12, using: &random) {
                let scalar: UInt32 =
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: UInt32.random(in: 0..<0x20, using: &random)
                    case 1: UInt32.random(in: 0x20..<0x80, using: &random)
                    case 2: UInt32.random(in: 0x80..<0xD800, using: &random)
                    default: UInt32.random(in: 0x1_0000..<0x11_0000, using: &random)
                    }
                text.unicodeScalars.append(Unicode.Scalar(scalar)!)
            }
            return text
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64]) func randomDocumentsComeOutAsJSONEncoderWritesThem(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<300 {
            try expectSameBytes(Tree.random(depth: 4, using: &random))
        }
    }
}
