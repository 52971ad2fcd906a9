import Foundation
import TestSupport
import Testing
@testable import TodoViewModels

/// The title sort's key: the fast path for ASCII titles must fold exactly as
/// Foundation does, or titles would sort differently by their characters.
@Suite struct SortKeysTests {
    @Test func asciiTitlesFoldAsFoundationFoldsThem() {
        var random = SeededRandom(seed: 12)
        let characters = Array(" !\"#09:@AMZ[`amz{~\u{7f}\t")
        for _ in 0..<5_000 {
            let title = String((0..<Int.random(in: 0...24, using: &random)).map { _ in characters.randomElement(using: &random)! })
            let foundation = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            #expect(SortKeys.folded(title) == foundation, "\(title.debugDescription)")
        }
    }

    @Test func otherTitlesFoldCaseDiacriticsAndWidth() {
        #expect(SortKeys.folded("Ärger über Ｗｉｄｅ") == "arger uber wide")
        #expect(SortKeys.folded("CAFÉ") == SortKeys.folded("cafe"))
        #expect(SortKeys.folded("Buy MILK") == "buy milk")
    }
}
