import Testing
import TodoModel

/// Query regular expressions that can backtrack exponentially are refused
/// when the query is read, with where and why; the rest are accepted.
@Suite struct RegexCostTests {
    @Test(arguments: ["(a+)+$", "(a|ab)*c", "(x*y*){2,}", "((ab)+)+", "(a|a)+", "(.*)*", #"(\w+\s?)+$"#, #"(a)\1"#])
    func exponentialShapesAreRefused(pattern: String) {
        // `#expect(throws:)` with a check: the error says where and why.
        let text = "+home /\(pattern)/"
        #expect {
            try Query.parse(text)
        } throws: { error in
            guard let error = error as? QueryParseError else { return false }
            return error.position == 6 && error.description.contains("exponential time")
        }
    }

    @Test(arguments: ["report", "^buy (milk|eggs)$", "[a-z]+ing", "(ab){3}", "a+b*c?", #"\(a+\)+"#, "[(a+)+]", "(?:x)y+"])
    func linearShapesAreAccepted(pattern: String) throws {
        #expect(try Query.parse("/\(pattern)/") == .regex(pattern))
    }

    @Test func longPatternsAreRefused() throws {
        #expect(throws: QueryParseError.self) { try Query.parse("/" + String(repeating: "a", count: 257) + "/") }
        #expect(try Query.parse("/" + String(repeating: "a", count: 256) + "/") == .regex(String(repeating: "a", count: 256)))
    }
}
