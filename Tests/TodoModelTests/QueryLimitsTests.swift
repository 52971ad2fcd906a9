import Testing
import TodoModel

/// A query's size is bounded, so that no client can overflow the daemon's
/// stack or slow every edit; each refusal says where.
@Suite struct QueryLimitsTests {
    @Test func deepNestingIsRefusedAtTheLevelTooDeep() throws {
        #expect(try Query.parse(String(repeating: "(", count: 32) + "a" + String(repeating: ")", count: 32)) == .text("a"))
        let deep = String(repeating: "(", count: 20_000) + "a" + String(repeating: ")", count: 20_000)
        #expect(throws: QueryParseError.self) { try Query.parse(deep) }
        let nested = String(repeating: "(", count: 40) + "a" + String(repeating: ")", count: 40)
        #expect { try Query.parse(nested) } throws: { ($0 as? QueryParseError)?.position == 32 }
        let nots = String(repeating: "not ", count: 33) + "a"
        #expect { try Query.parse(nots) } throws: { ($0 as? QueryParseError)?.position == 128 }
    }

    @Test func longAndManyTermQueriesAreRefused() {
        #expect { try Query.parse(String(repeating: "a ", count: 600)) } throws: { ($0 as? QueryParseError)?.position == 1024 }
        #expect { try Query.parse(String(repeating: "a ", count: 300)) } throws: { ($0 as? QueryParseError)?.position == 512 }
    }

    @Test func controlCharactersAreRefused() {
        #expect { try Query.parse("\"a\u{1B}[31mred\"") } throws: { ($0 as? QueryParseError)?.position == 2 }
    }
}
