import CanonicalJSON
import FoundationEssentials
import Testing

@Suite struct JSONValueTests {
    static let text = #"{"big":12345678901234567890.123,"whole":9007199254740993,"half":0.5,"list":[1,"a",null,true]}"#

    private func decoded(exactNumbers: Bool) throws -> JSONValue {
        let decoder = JSONDecoder()
        if exactNumbers { decoder.userInfo[JSONValue.exactNumbers] = true }
        return try decoder.decode(JSONValue.self, from: Data(Self.text.utf8))
    }

    @Test func wholeNumbersAreIntegersAndOthersDoublesByDefault() throws {
        guard case .object(let members) = try decoded(exactNumbers: false) else { Issue.record("not an object"); return }
        #expect(members["whole"] == .integer(9_007_199_254_740_993), "past 2^53, exactly")
        #expect(members["half"] == .double(0.5))
        if case .double = members["big"] {} else { Issue.record("\(String(describing: members["big"]))") }
        #expect(members["list"] == [1, "a", nil, true])
    }

    @Test func exactNumbersKeepEveryDigitAndWriteThemBack() throws {
        let value = try decoded(exactNumbers: true)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members["big"] == .decimal(Decimal(string: "12345678901234567890.123")!))
        #expect(members["whole"] == .integer(9_007_199_254_740_993))
        var bytes: [UInt8] = []
        try value.writeJSON(into: &bytes)
        let written = String(decoding: bytes, as: UTF8.self)
        #expect(written.contains(#""big":12345678901234567890.123"#), "\(written)")
        #expect(value.typeName == "an object" && members["big"]?.typeName == "a number")
    }

    @Test func aNumberPastWhatADoubleHoldsIsAnErrorWithItsPath() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a":[1e999]}"#.utf8))
        }
    }
}
