import Foundation
import Testing

@testable import TodoProtocol

/// The scanner alone: what it accepts, what it refuses, and where it says
/// the problem is.
@Suite struct JSONScannerTests {
    private func scan(_ bytes: [UInt8]) -> Result<JSONScanner.Scan, JSONSyntaxError> {
        bytes.withUnsafeBytes { buffer in Result { () throws(JSONSyntaxError) in try JSONScanner.scan(buffer, recordingDepth: 2) } }
    }

    private func error(_ bytes: [UInt8]) -> JSONSyntaxError? {
        if case .failure(let error) = scan(bytes) { return error }
        return nil
    }

    private func accepts(_ bytes: [UInt8]) -> Bool { error(bytes) == nil }

    static let valid: [String] = [
        "{}", "[]", "0", "-0", "1.5e-3", "1E+10", "-12.25E-0", "\"a\"", "true", "false", "null", " \t\r\n{} \r\n",
        #"{"a":{"a":1}}"#, #"[{"a":1},{"a":1}]"#, #"{"a":1,"b":[],"c":{},"d":"","e":null}"#,
        #"["\" \\ \/ \b \f \n \r \t \u0000 \u00e9 \uFFFF \uD834\uDD1E"]"#,
        "[\"é 𝄞 \u{7F} \u{FFFF} \u{10FFFF}\"]",
        "[" + String(repeating: "9", count: 1000) + "e-" + String(repeating: "9", count: 500) + "]",
        "{" + (0..<200).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}",
        #"{"a":1,"A":2,"a ":3,"\u00e9":4,"é ":5}"#,
    ]

    @Test(arguments: valid)
    func validJSONIsAccepted(_ text: String) {
        #expect(error(Array(text.utf8)) == nil, "\(text.prefix(60))")
    }

    /// Each refused text, the byte the error names, and a phrase of its message.
    static let invalid: [(String, Int, String)] = [
        ("", 0, "holds no JSON value"),
        ("   ", 3, "holds no JSON value"),
        ("[1,]", 2, "trailing comma before ']'"),
        (#"{"a":1,}"#, 6, "trailing comma before '}'"),
        ("[1, ]", 2, "trailing comma"),
        ("[,1]", 1, "expected a value, found ','"),
        ("[1,,2]", 3, "expected a value"),
        ("[01]", 1, "leading zero"),
        ("[-01]", 1, "leading zero"),
        ("[00]", 1, "leading zero"),
        ("[NaN]", 1, "NaN"),
        ("[Infinity]", 1, "Infinity"),
        ("[-Infinity]", 2, "'-' must be followed by a digit"),
        ("[+1]", 1, "leading '+'"),
        ("[.5]", 1, "leading '.'"),
        ("[1.]", 3, "'.' in a number must be followed by a digit"),
        ("[1.e5]", 3, "'.' in a number"),
        ("[1e]", 3, "exponent"),
        ("[1e+]", 4, "exponent"),
        ("[-]", 2, "'-' must be followed by a digit"),
        ("[0x10]", 2, "expected ',' or ']'"),
        ("['a']", 1, "single quote"),
        ("{'a':1}", 1, "single quote"),
        ("[1]//c", 3, "end of the line"),
        ("[1,/*c*/2]", 3, "no comments"),
        ("[tru]", 1, "unknown word"),
        ("[True]", 1, "expected a value"),
        ("[nul]", 1, "unknown word"),
        ("[truex]", 5, "expected ',' or ']'"),
        ("[\"a\tb\"]", 3, "raw control character (U+0009)"),
        ("[\"a\nb\"]", 3, "U+000A"),
        (#"["\x"]"#, 2, "invalid escape: '\\' followed by 'x'"),
        (#"["\U0041"]"#, 2, "invalid escape"),
        (#"["\u12"]"#, 2, "four hex digits"),
        (#"["\u12G4"]"#, 2, "four hex digits"),
        (#"["\uD800"]"#, 2, "lone surrogate \\uD800"),
        (#"["\uDC00"]"#, 2, "lone surrogate \\uDC00"),
        (#"["\uD800\u0041"]"#, 2, "lone surrogate"),
        (#"["\uD800\uD800"]"#, 2, "lone surrogate"),
        (#"["\uD800\n"]"#, 2, "lone surrogate"),
        (#"["\uD800\uZZZZ"]"#, 8, "four hex digits"),
        (#"["\udbff\udfff\udc00"]"#, 14, "lone surrogate \\uDC00"),
        ("[1] x", 4, "expected the end of the line after the JSON value, found 'x'"),
        (#"{"a":1}{"b":2}"#, 7, "end of the line"),
        ("[1 2]", 3, "expected ',' or ']'"),
        (#"{"a" 1}"#, 5, "':' after the key"),
        ("{1:1}", 1, "key in double quotes"),
        (#"{"a":1 "b":2}"#, 7, "expected ',' or '}'"),
        ("[1}", 2, "expected ',' or ']'"),
        (#"{"a":1]"#, 6, "expected ',' or '}'"),
        ("[", 1, "ends inside the array that starts at byte 0"),
        (#"{"a":"#, 5, "ends inside the object that starts at byte 0"),
        (#"{"a""#, 4, "ends inside the object"),
        (#"[{"a":[1,"#, 9, "ends inside the array that starts at byte 6"),
        (#"["abc"#, 5, "ends inside the string that starts at byte 1"),
        (#"["abc\"#, 6, "ends inside an escape"),
        (#"{"a":1,"a":2}"#, 7, #"the key "a" appears twice"#),
        (#"{"a":1,"\u0061":2}"#, 7, #"the key "a" appears twice"#),
        (#"{"\u00e9":1,"é":2}"#, 12, #"the key "é" appears twice"#),
        (#"{"x":{"a":1,"a":2}}"#, 12, "appears twice"),
        (#"[{"id":1,"id":2}]"#, 9, #""id" appears twice"#),
        ("[\u{A0}1]", 1, "found the character U+00A0"),
        ("[\u{FEFF}1]", 1, "U+FEFF"),
    ]

    @Test(arguments: invalid)
    func invalidJSONIsRefusedAtTheRightByte(_ text: String, offset: Int, phrase: String) {
        let error = error(Array(text.utf8))
        #expect(error?.offset == offset, "\(text): \(error?.description ?? "accepted")")
        #expect(error?.problem.contains(phrase) == true, "\(text): \(error?.description ?? "accepted")")
    }

    @Test func duplicateKeysAreFoundInLargeObjectsToo() {
        let keys = (0..<5000).map { "\"k\($0)\":0" }
        #expect(accepts(Array(("{" + keys.joined(separator: ",") + "}").utf8)))
        let duplicated = "{" + keys.joined(separator: ",") + #","k4321":1}"#
        #expect(error(Array(duplicated.utf8))?.problem.contains(#""k4321" appears twice"#) == true)
        let escaped = "{" + keys.joined(separator: ",") + #","\u006b17":1}"#
        #expect(error(Array(escaped.utf8))?.problem.contains(#""k17" appears twice"#) == true)
        // A nested object's keys are its own, even inside a large one.
        let nested = "{" + keys.joined(separator: ",") + #","n":{"k1":1,"k2":{"k1":1}}}"#
        #expect(accepts(Array(nested.utf8)))
    }

    // MARK: Encodings

    static let otherEncodings: [([UInt8], Int, String)] = [
        ([0xEF, 0xBB, 0xBF] + Array("{}".utf8), 0, "UTF-8 byte order mark"),
        ([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], 0, "UTF-16 or UTF-32 byte order mark"),
        ([0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D], 0, "UTF-16 or UTF-32 byte order mark"),
        ([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00, 0x7B], 0, "UTF-16 or UTF-32 byte order mark"),
        ([0xFF, 0xFE, 0x00, 0x00, 0x7B, 0x00, 0x00, 0x00], 0, "UTF-16 or UTF-32 byte order mark"),
        ([0x7B, 0x00, 0x7D, 0x00], 1, "NUL byte"),  // UTF-16LE
        ([0x00, 0x7B, 0x00, 0x7D], 0, "NUL byte"),  // UTF-16BE
        ([0x7B, 0x00, 0x00, 0x00, 0x7D, 0x00, 0x00, 0x00], 1, "NUL byte"),  // UTF-32LE
        ([0x5B, 0x22, 0x61, 0x00, 0x22, 0x5D], 3, "NUL byte in a string"),
        ([0x5B, 0x31, 0x5D, 0x00], 3, "end of the line"),
    ]

    @Test(arguments: otherEncodings)
    func onlyUTF8WithoutAByteOrderMarkIsJSON(_ bytes: [UInt8], offset: Int, phrase: String) {
        let error = error(bytes)
        #expect(error?.offset == offset, "\(error?.description ?? "accepted")")
        #expect(error?.problem.contains(phrase) == true, "\(error?.description ?? "accepted")")
    }

    static let invalidUTF8: [([UInt8], String)] = [
        ([0xC0, 0x80], "overlong"), ([0xC1, 0xBF], "overlong"), ([0xE0, 0x80, 0x80], "overlong"),
        ([0xE0, 0x9F, 0xBF], "overlong"), ([0xF0, 0x80, 0x80, 0x80], "overlong"), ([0xF0, 0x8F, 0xBF, 0xBF], "overlong"),
        ([0xED, 0xA0, 0x80], "surrogate"), ([0xED, 0xBF, 0xBF], "surrogate"),
        ([0xF4, 0x90, 0x80, 0x80], "beyond U+10FFFF"), ([0xF5, 0x80, 0x80, 0x80], "never occurs"),
        ([0xFF], "never occurs"), ([0xFE], "never occurs"), ([0xF8, 0x88, 0x80, 0x80, 0x80], "never occurs"),
        ([0x80], "continuation byte without a lead"), ([0xBF], "continuation byte without a lead"),
        ([0xC2], "cut short"), ([0xE2, 0x82], "cut short"), ([0xF0, 0x9F, 0x98], "cut short"),
        ([0xC3, 0x28], "cut short"), ([0xE2, 0x28, 0xA1], "cut short"),
    ]

    /// In a string (`["…"]`) and outside one (`[…]`), at byte 2 and 1.
    @Test(arguments: invalidUTF8)
    func invalidUTF8IsRefusedWhereItIs(_ sequence: [UInt8], phrase: String) {
        for (bytes, offset) in [([0x5B, 0x22] + sequence + [0x22, 0x5D], 2), ([0x5B] + sequence + [0x5D], 1)] {
            let error = error(bytes)
            #expect(error?.offset == offset, "\(bytes): \(error?.description ?? "accepted")")
            #expect(error?.problem.contains("invalid UTF-8") == true, "\(bytes): \(error?.description ?? "accepted")")
            #expect(error?.problem.contains(phrase) == true, "\(bytes): \(error?.description ?? "accepted")")
        }
        // Cut short by the end of the line, too.
        let cut = [0x5B, 0x22] + sequence.dropLast()
        if sequence.count > 1, sequence[0] >= 0xC2, sequence[0] <= 0xF4 { #expect(error(cut)?.problem.contains("invalid UTF-8") == true) }
    }

    /// What a string may hold, decided for every byte sequence of one to
    /// three bytes (four-byte ones by their lead and second byte), against
    /// Swift's own UTF-8 validation.
    @Test func everyShortByteSequenceInAStringIsJudgedLikeSwiftsUTF8Validation() {
        func expected(_ sequence: [UInt8]) -> Bool {
            guard let text = String(validating: sequence, as: UTF8.self) else { return false }
            return text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "\"" && $0 != "\\" }
        }
        var checked = 0
        var sequences: [[UInt8]] = (0...255).map { [UInt8($0)] }
        for lead in 0x80...0xFF {
            for second in 0...255 { sequences.append([UInt8(lead), UInt8(second)]) }
        }
        let around: [UInt8] = [0x00, 0x22, 0x41, 0x5C, 0x7F] + Array(0x7E...0xC1)
        for lead in 0xE0...0xEF {
            for second in around { for third in around { sequences.append([UInt8(lead), second, third]) } }
        }
        for lead in 0xF0...0xF7 {
            for second in around { sequences.append([UInt8(lead), second, 0x80, 0x80]) }
        }
        for sequence in sequences where sequence != [0x5C] {  // a lone backslash would escape the quote
            let accepted = accepts([0x5B, 0x22] + sequence + [0x22, 0x5D])
            if accepted != expected(sequence) {
                Issue.record("\(sequence.map { String($0, radix: 16) }): scanner \(accepted), Swift \(expected(sequence))")
            }
            checked += 1
        }
        #expect(checked > 100_000)
    }

    /// Outside strings only JSON's own ASCII bytes may appear.
    @Test func everyByteOutsideAStringIsJudged() {
        for byte in UInt8(0)...UInt8(255) {
            let accepted = accepts([0x5B, byte, 0x5D])
            #expect(accepted == (byte >= 0x30 && byte <= 0x39) || JSONScanner.isWhitespace(byte), "byte \(byte)")
        }
    }

    // MARK: Nesting

    @Test func nestingIsLimitedTo32LevelsWhateverTheContainers() {
        for (open, innermost, close) in [("[", "[]", "]"), (#"{"a":"#, "{}", "}")] {
            func nested(_ levels: Int) -> String {
                String(repeating: open, count: levels - 1) + innermost + String(repeating: close, count: levels - 1)
            }
            #expect(accepts(Array(nested(32).utf8)))
            let tooDeep = nested(33)
            let error = error(Array(tooDeep.utf8))
            #expect(error?.problem == "arrays and objects are nested more than 32 levels deep")
            #expect(error?.offset == open.utf8.count * 32)
        }
        // A hundred thousand levels are refused at the 33rd, without recursion.
        #expect(error(Array(repeating: UInt8(ascii: "["), count: 100_000))?.offset == 32)
    }

    /// Brackets inside strings, escaped or not, are text and count for nothing.
    @Test func bracketsInStringsDoNotCount() {
        let inString = "[\"" + String(repeating: "[{", count: 100) + #"\u005b\u007b\""# + "\"]"
        #expect(accepts(Array(inString.utf8)))
        // ... and an escaped quote does not end a string early.
        let sneaky = String(repeating: "[", count: 32) + #""\"[[[[""# + String(repeating: "]", count: 32)
        #expect(accepts(Array(sneaky.utf8)))
    }

    // MARK: Byte by byte

    /// Every proper prefix of a valid request is refused (a line cut short
    /// is never read as something else), and the whole is accepted.
    @Test func everyPrefixOfARequestIsRefused() {
        let line = Array(#"{"jsonrpc":"2.0","id":"a\"b","method":"todo.add","params":{"title":"é 𝄞\n","due":null,"n":[-1.5e3,true,false]}}"#.utf8)
        #expect(accepts(line))
        for length in 0..<line.count {
            let prefix = Array(line[..<length])
            guard let error = error(prefix) else {
                Issue.record("the prefix of \(length) bytes was accepted")
                continue
            }
            #expect(error.offset <= length)
        }
    }

    /// The members of each level, with their keys, ranges and parents.
    @Test func membersAreRecordedToTheDepthAsked() throws {
        let text = #"[{"a":1,"b":[2]},"s",{"c":{"d":3}}]"#
        let bytes = Array(text.utf8)
        let members = try scan(bytes).get().members
        func describe(_ member: JSONScanner.Member) -> String {
            let key = member.key.map { String(decoding: bytes[$0.content], as: UTF8.self) + ":" } ?? ""
            return "\(member.parent) \(key)\(String(decoding: bytes[member.value], as: UTF8.self))"
        }
        #expect(
            members.map(describe) == [
                #"-1 {"a":1,"b":[2]}"#, "0 a:1", "0 b:[2]", #"-1 "s""#, #"-1 {"c":{"d":3}}"#, #"4 c:{"d":3}"#,
            ])
    }
}
