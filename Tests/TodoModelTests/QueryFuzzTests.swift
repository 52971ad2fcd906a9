import TestSupport
import Testing
import TodoModel

/// Random text built from the grammar's own characters and words (and the
/// declared fields' keys, `queryTestFields`): the parser
/// never crashes, every error points inside the text, and every query it
/// accepts reads back the same from its canonical text.
@Suite struct QueryFuzzTests {
    static let pieces: [String] = [
        "+", "-", ":", "(", ")", "\"", "/", "!", "\\", ".", " ", " ", " ", "a", "b", "x", "é", "1", "7", "0",
        "or", "and", "not", "OR", " or ", " and ", " not ", "project:", "pro:", "pri:", "priority.above:",
        "due:", "due.before:", "status:", "H", "none", "overdue", "recurring", "home.garden", "foo:", "https://",
        "\t", "[", "*", "?", "\u{301}", "\u{A0}", "👩‍👩‍👧", "Ω",
        "ready", "sch:", "scheduled.after:", "until.", "estimate:", "estimate.above:", "size:", "owner:", "2h", "M",
    ]

    static func randomText(_ random: inout SeededRandom) -> String {
        let length = Int.random(in: 0...14, using: &random)
        return (0..<length).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4])
    func neverCrashesAndRoundTrips(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var parsed = 0
        var failures: [String] = []
        for _ in 0..<5_000 {
            let text = Self.randomText(&random)
            do {
                let query = try Query.parse(text, fields: queryTestFields)
                parsed += 1
                let canonical = query.description
                do {
                    let again = try Query.parse(canonical, fields: queryTestFields)
                    if again != query { failures.append("\(text) → \(canonical) reads as \(again)") }
                    if again.description != canonical { failures.append("\(canonical) is not stable") }
                } catch {
                    failures.append("\(text) → \(canonical) fails: \(error)")
                }
            } catch {
                if !(0...text.count).contains(error.position) {
                    failures.append("\(text): position \(error.position) outside 0...\(text.count)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
        // The alphabet is rich enough that both outcomes are exercised.
        #expect(parsed > 500)
        #expect(parsed < 4_500)
    }
}
