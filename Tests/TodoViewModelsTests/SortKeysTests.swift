import Foundation
import TestSupport
import Testing
import TodoModel
@testable import TodoViewModels
import TodoViewState

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

    /// Sorting a whole view by words (`SortWords`) must give the order the
    /// rows are placed in one by one (`SortKeys.precedes`), for every sort
    /// key, either direction, grouped or not: titles that share long starts,
    /// numbers, letters beyond a byte, ties, missing dates and projects.
    @Test(arguments: [21, 22, 23, 24])
    func sortingByWordsAgreesWithPlacingOneByOne(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let titles = [
            "write the weekly report 7", "write the weekly report 10", "write the weekly report 010", "Write the weekly report",
            "write the weekly report", "éclair", "eclair", "Äpfel", "apfel", "寿司", "寿司 2", "😀 smile", "😀 smile!", "", "a",
            "item 2", "item 10", "item 0", "item 00", "zebra", "寿a", "司b",
        ]
        let projects: [String?] = [nil, "home", "home.garden", "Home", "work.q4", "ärger"]
        let dates: [Date?] = [nil, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -86_400), Date(timeIntervalSince1970: 1_795_345_200)]
        let keys = (1...400).map { index in
            let title = NaturalSortKey(titles.randomElement(using: &random)!)
            let project = projects.randomElement(using: &random)!
            return SortKeys.Key(
                id: TodoID(Int64(index)), createdAt: dates.randomElement(using: &random)! ?? Date(timeIntervalSince1970: 5),
                modifiedAt: Date(timeIntervalSince1970: Double(Int.random(in: -2...2, using: &random))), title: title,
                dueInstant: dates.randomElement(using: &random)!, priorityRank: Int.random(in: 0...3, using: &random),
                project: project.map(SortKeys.folded), urgency: [0, -0.0, 1.5, -3, 12][Int.random(in: 0..<5, using: &random)],
                projectName: project)
        }
        let sorts = ["title", "title-", "created", "created-", "modified,title", "due", "due-,title", "priority", "priority-,due",
                     "project", "project-,title-", "urgency", "urgency-,created", "due,priority,project,urgency,title"]
        for text in sorts {
            let sort = try ListSort(parsing: text)
            for grouping in [nil, ListGrouping.project] {
                let references = keys.shuffled(using: &random).map { Unmanaged.passUnretained($0) }
                let byWords = SortWords(sort: sort, grouping: grouping, keys: references).sorted(references)
                    .map { $0.takeUnretainedValue().id }
                let byPrecedes = keys.sorted { SortKeys.precedes($0, $1, by: sort, grouping: grouping) }.map(\.id)
                let firstDifference = byWords.indices.first { byWords[$0] != byPrecedes[$0] }
                #expect(
                    firstDifference == nil,
                    "sort \(text), grouping \(String(describing: grouping)): rows differ from row \(firstDifference ?? 0)")
            }
        }
        withExtendedLifetime(keys) {}
    }

    /// Instants that `Date` tells apart (it counts from 2001) but that would
    /// be one double counted from 1970 still sort as `Date` orders them.
    @Test func instantsCloserThanADoubleFrom1970StillSortApart() throws {
        let earlier = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let later = Date(timeIntervalSinceReferenceDate: 800_000_000.nextUp)
        #expect(earlier.timeIntervalSince1970 == later.timeIntervalSince1970)
        let keys = [(TodoID(1), later), (TodoID(2), earlier)].map { id, instant in
            SortKeys.Key(
                id: id, createdAt: instant, modifiedAt: instant, title: NaturalSortKey("x"), dueInstant: instant,
                priorityRank: 0, project: nil, urgency: 0, projectName: nil)
        }
        for text in ["created", "modified", "due"] {
            let references = keys.map { Unmanaged.passUnretained($0) }
            let sorted = SortWords(sort: try ListSort(parsing: text), grouping: nil, keys: references).sorted(references)
            #expect(sorted.map { $0.takeUnretainedValue().id } == [TodoID(2), TodoID(1)], "sort \(text)")
        }
        withExtendedLifetime(keys) {}
    }

    @Test func otherTitlesFoldCaseDiacriticsAndWidth() {
        #expect(SortKeys.folded("Ärger über Ｗｉｄｅ") == "arger uber wide")
        #expect(SortKeys.folded("CAFÉ") == SortKeys.folded("cafe"))
        #expect(SortKeys.folded("Buy MILK") == "buy milk")
    }
}
