import CanonicalJSON
import Foundation
import TestSupport
import Testing
@testable import TodoProtocol

/// Params are decoded from a `JSONValue` tree (`JSONValueDecoder`) and, when
/// that fails, again by `JSONDecoder` for the error's wording. Whatever the
/// text, the result must be what `JSONDecoder` alone makes of it: the same
/// value, or a refusal worded as before.
@Suite struct ParamsDecodingTests {
    /// Random JSON near the edges where the two could differ: numbers
    /// written as integers, with a fraction, an exponent, beyond Int64 or
    /// Double, strings with escapes, nulls, wrong kinds, nesting.
    struct Generator {
        var random: SeededRandom
        static let keys = ["id", "text", "title", "due", "number", "commands", "method", "params", "x"]
        static let numbers = [
            "0", "-0", "7", "1.0", "1.5", "1e2", "1E+2", "-3", "9223372036854775807", "9223372036854775808",
            "-9223372036854775809", "1e400", "0.1", "12345678901234567890", "2.5e-3",
        ]
        static let strings = [#""""#, #""a""#, #""buy milk +errands due:fri""#, #""\u00e9\n\"\\/""#, #""\ud83d\ude00""#]

        mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }

        mutating func value(depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &random) {
            case 0, 1: return pick(Self.numbers)
            case 2: return pick(Self.strings)
            case 3: return pick(["true", "false"])
            case 4: return "null"
            case 5: return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth: depth + 1) }.joined(separator: ",") + "]"
            default: return object(depth: depth + 1)
            }
        }

        mutating func object(depth: Int) -> String {
            var keys = Self.keys
            keys.shuffle(using: &random)
            let members = keys.prefix(Int.random(in: 0...4, using: &random)).map { key -> String in
                let value: String
                if key == "commands", Bool.random(using: &random) {
                    value = "[" + (0..<Int.random(in: 0...2, using: &random)).map { _ in
                        #"{"method":"todo.setDone","params":"# + object(depth: depth + 1) + "}"
                    }.joined(separator: ",") + "]"
                } else {
                    value = self.value(depth: depth)
                }
                return "\"\(key)\":\(value)"
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    /// What `JSONDecoder` alone makes of `json`: the value, or the error as the old path worded it.
    static func reference<P: Decodable>(_ json: Data, as type: P.Type) -> Result<P, RPCError> {
        do {
            return .success(try JSONDecoder().decode(P.self, from: json))
        } catch {
            return .failure(.invalidParams("refused"))
        }
    }

    static func check<P: Decodable & Equatable>(_ type: P.Type, _ text: String) -> Bool {
        let json = Data(text.utf8)
        let decoded = Result { () throws(RPCError) in try IncomingRequest.decode(json, as: P.self) }
        // A transaction's commands arrive as a tree, read from the line.
        let tree = try? JSONValue(parsing: json)
        let fromTree = Result { () throws(RPCError) in try IncomingRequest.decode(tree, as: P.self) }
        switch reference(json, as: P.self) {
        case .success(let expected):
            #expect(decoded == .success(expected), "\(text)")
            // As the tree was read before: written out, and read by JSONDecoder.
            if let tree, case .success(let before) = reference(try! JSONEncoder().encode(tree), as: P.self) {
                #expect(fromTree == .success(before), "\(text)")
            }
            return true
        case .failure:
            guard case .failure = decoded else {
                Issue.record("\(text) was refused by JSONDecoder but decoded as \(decoded)")
                return false
            }
            return false
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func paramsDecodeAsJSONDecoderDecodesThem(seed: UInt64) {
        var generator = Generator(random: SeededRandom(seed: seed))
        var decoded = 0
        for _ in 0..<1_500 {
            let text = generator.object(depth: 0)
            if Self.check(AddTodo.Params.self, text) { decoded += 1 }
            if Self.check(AddTodoNote.Params.self, text) { decoded += 1 }
            if Self.check(RemoveTodoNote.Params.self, text) { decoded += 1 }
            if Self.check(Transaction.Params.self, text) { decoded += 1 }
        }
        // Both outcomes are exercised, not only refusals.
        #expect(decoded > 500)
    }

    /// A refusal reads as it did when `JSONDecoder` alone read params.
    @Test func refusalsAreWordedAsBefore() {
        let cases: [(String, String)] = [
            (#"{"id":"7","text":"a"}"#, #""id": expected an integer"#),
            (#"{"text":"a"}"#, #""id" is missing"#),
            (#"{"id":1.5,"text":"a"}"#, #""id": 1.5 does not fit: it is not a whole number"#),
            (#"{"id":9223372036854775808,"text":"a"}"#, #""id": 9223372036854775808 does not fit: integers here are from"#),
        ]
        for (text, message) in cases {
            let decoded = Result { () throws(RPCError) in try IncomingRequest.decode(Data(text.utf8), as: AddTodoNote.Params.self) }
            guard case .failure(let error) = decoded else {
                Issue.record("\(text) decoded")
                continue
            }
            #expect(error.message.contains(message), "\(text): \(error.message)")
        }
    }
}
