import PercentEncoding
import TestSupport
import Testing

@Suite struct PercentEncodingTests {
    @Test func everyByteButTheUnreservedIsEscapedInUpperCase() {
        #expect(PercentEncoding.encode("a@b c/d") == "a%40b%20c%2Fd")
        #expect(PercentEncoding.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(PercentEncoding.encode("é") == "%C3%A9")
        #expect(PercentEncoding.encode([0xE9]) == "%E9", "a byte that is not UTF-8 is escaped as it is")
        #expect(PercentEncoding.encode("::1", alsoAllowed: Set(":".utf8)) == "::1")
    }

    @Test func escapesDecodeInEitherCaseToBytes() {
        #expect(PercentEncoding.decode("a%40b") == Array("a@b".utf8))
        #expect(PercentEncoding.decode("%2f%2F") == Array("//".utf8))
        #expect(PercentEncoding.decode("%E9") == [0xE9])
        #expect(PercentEncoding.decode("") == [])
    }

    @Test(arguments: ["%", "%4", "a%zz", "%G0", "ends in %"])
    func aStrayPercentIsRefusedOrTakenLiterally(_ text: String) {
        #expect(PercentEncoding.decode(text) == nil)
        #expect(PercentEncoding.decode(text, strayPercent: .literal) == Array(text.utf8))
    }

    @Test func aStrayPercentBesideAnEscapeKeepsBoth() {
        #expect(PercentEncoding.decode("%%41", strayPercent: .literal) == Array("%A".utf8))
        #expect(PercentEncoding.decode("%%41") == nil)
    }

    /// Every byte string encodes to a text that decodes back to it, and an
    /// encoded text is its own encoding once decoded (one spelling each).
    @Test func encodingRoundTripsEveryByte() {
        var generator = SeededRandom(seed: 47)
        for _ in 0..<2000 {
            let bytes = (0..<Int(generator.next() % 12)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let encoded = PercentEncoding.encode(bytes)
            #expect(PercentEncoding.decode(encoded) == bytes, "\(bytes) → \(encoded)")
            #expect(PercentEncoding.encode(PercentEncoding.decode(encoded) ?? []) == encoded)
            #expect(encoded.utf8.allSatisfy { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "%") })
        }
    }
}
