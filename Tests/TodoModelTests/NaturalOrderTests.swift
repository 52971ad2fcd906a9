import TestSupport
import Testing
import TodoModel

@Suite struct NaturalOrderTests {
    private func sorted(_ titles: [String]) -> [String] {
        titles.sorted(by: NaturalOrder.areInIncreasingOrder)
    }

    @Test func numbersCompareByValue() {
        #expect(sorted(["item 10", "item 2", "item 1", "item 20", "item 3"]) == ["item 1", "item 2", "item 3", "item 10", "item 20"])
        #expect(sorted(["v1.10", "v1.9", "v1.2"]) == ["v1.2", "v1.9", "v1.10"])
        #expect(sorted(["a10b2", "a10b10", "a9b99"]) == ["a9b99", "a10b2", "a10b10"])
    }

    @Test func caseAndDiacriticsDoNotChangeTheOrder() {
        #expect(sorted(["banana", "apple", "Cherry", "Äpfel"]) == ["Äpfel", "apple", "banana", "Cherry"])
        #expect(sorted(["élan", "Elm", "ekko"]) == ["ekko", "élan", "Elm"])
    }

    @Test func leadingZerosDoNotCountButStillBreakTies() {
        #expect(NaturalOrder.areInIncreasingOrder("file 007", "file 8"))
        #expect(NaturalOrder.areInIncreasingOrder("file 9", "file 010"))
        #expect(NaturalSortKey("file 007").folded == NaturalSortKey("file 7").folded)
        // Equal by value, so the plain text decides, and always the same way.
        #expect(NaturalOrder.compare("file 007", "file 7") == -1)
        #expect(NaturalOrder.compare("file 7", "file 007") == 1)
        #expect(NaturalOrder.areInIncreasingOrder("0", "1"))
        #expect(NaturalOrder.areInIncreasingOrder("00", "1"))
    }

    @Test func veryLongDigitRunsCompareByValue() {
        let big = "id " + String(repeating: "9", count: 60)
        let bigger = "id 1" + String(repeating: "0", count: 60)
        let paddedSmall = "id " + String(repeating: "0", count: 100) + "5"
        #expect(sorted([bigger, big, paddedSmall]) == [paddedSmall, big, bigger])
        let a = "x " + String(repeating: "1", count: 40) + "2"
        let b = "x " + String(repeating: "1", count: 40) + "3"
        #expect(NaturalOrder.areInIncreasingOrder(a, b))
    }

    @Test func shorterPrefixesComeFirstAndNumbersSortLikeDigits() {
        #expect(sorted(["item 2a", "item 2", "item"]) == ["item", "item 2", "item 2a"])
        #expect(sorted(["a b", "a1", "ab"]) == ["a b", "a1", "ab"])
    }

    @Test func onlyEqualTextIsEqual() {
        #expect(NaturalOrder.compare("Milk", "milk") != 0)
        #expect(NaturalOrder.compare("milk", "milk") == 0)
        #expect(NaturalOrder.compare("caf\u{E9}", "cafe\u{301}") == 0, "canonically equivalent text is the same text")
    }

    /// The order is a strict total order: sorting any shuffle gives one result,
    /// and keys and the comparator agree.
    @Test func sortingIsDeterministic() {
        var random = SeededRandom(seed: 42)
        let alphabet: [String] = ["a", "A", "á", "b", "0", "1", "2", "9", "00", " ", "-", "ß", "10"]
        let titles = (0..<400).map { _ in
            (0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
        }
        let once = sorted(titles)
        for _ in 0..<5 {
            #expect(sorted(titles.shuffled(using: &random)) == once)
        }
        let byKeys = titles.map(NaturalSortKey.init).sorted().map(\.text)
        #expect(byKeys == once)
        for (earlier, later) in zip(once, once.dropFirst()) {
            #expect(!NaturalOrder.areInIncreasingOrder(later, earlier))
        }
    }
}
