import Testing
import TodoModel

/// Reads query text by the grammar alone, taking any date text as it is
/// (`QueryParseErrorTests` has the dates that are refused).
private func parse(_ text: String) throws -> Query {
    try Query.parse(text, checkingDates: { _ in })
}

/// What each piece of query text reads as.
@Suite struct QueryParserTests {
    @Test(arguments: [
        ("milk", Query.text("milk")),
        ("\"buy milk\"", .text("buy milk")),
        ("\"say \\\"hi\\\"\"", .text("say \"hi\"")),
        ("/^buy .*milk$/", .regex("^buy .*milk$")),
        ("/a\\/b/", .regex("a/b")),
        ("/a\\d+/", .regex("a\\d+")),
        ("+home", .tag("home")),
        ("-home", .not(.tag("home"))),
        ("project:home.garden", .project("home.garden")),
        ("pro:home", .project("home")),
        ("priority:H", .priority(.high)),
        ("pri:m", .priority(.medium)),
        ("priority:none", .priority(nil)),
        ("priority.above:L", .priorityAbove(.low)),
        ("pri.below:H", .priorityBelow(.high)),
        ("due:today", .dueOn("today")),
        ("due:2026-12-01", .dueOn("2026-12-01")),
        ("due:\"next friday\"", .dueOn("next friday")),
        ("due:\"none\"", .dueOn("none")),
        ("due.before:fri", .dueBefore("fri")),
        ("due.after:14:00", .dueAfter("14:00")),
        ("due:none", .dueNone),
        ("overdue", .overdue),
        ("status:pending", .status(.pending)),
        ("status:completed", .status(.completed)),
        ("status:waiting", .status(.waiting)),
        ("status:all", .status(.all)),
        ("recurring", .recurring),
        ("", .all),
        ("   ", .all),
    ])
    func eachTerm(text: String, expected: Query) throws {
        #expect(try parse(text) == expected)
    }

    @Test func notBindsTighterThanAndWhichBindsTighterThanOr() throws {
        #expect(try parse("a or b and c") == .or(.text("a"), .and(.text("b"), .text("c"))))
        #expect(try parse("a and b or c") == .or(.and(.text("a"), .text("b")), .text("c")))
        #expect(try parse("not a and b") == .and(.not(.text("a")), .text("b")))
        #expect(try parse("not a or b") == .or(.not(.text("a")), .text("b")))
    }

    @Test func andIsImplicitBetweenTerms() throws {
        #expect(try parse("+home milk") == .and(.tag("home"), .text("milk")))
        #expect(try parse("a b or c") == .or(.and(.text("a"), .text("b")), .text("c")))
        #expect(try parse("a (b)") == .and(.text("a"), .text("b")))
    }

    @Test func andAndOrGroupToTheLeft() throws {
        #expect(try parse("a b c") == .and(.and(.text("a"), .text("b")), .text("c")))
        #expect(try parse("a or b or c") == .or(.or(.text("a"), .text("b")), .text("c")))
    }

    @Test func parenthesesOverridePrecedence() throws {
        #expect(try parse("(a or b) c") == .and(.or(.text("a"), .text("b")), .text("c")))
        #expect(try parse("not (a or b)") == .not(.or(.text("a"), .text("b"))))
        #expect(try parse("((a))") == .text("a"))
        #expect(try parse("a and (b or (c and not d))")
            == .and(.text("a"), .or(.text("b"), .and(.text("c"), .not(.text("d"))))))
    }

    @Test func bangIsNotAtTheStartOfAToken() throws {
        #expect(try parse("!+home") == .not(.tag("home")))
        #expect(try parse("!(a or b)") == .not(.or(.text("a"), .text("b"))))
        #expect(try parse("! a") == .not(.text("a")))
        #expect(try parse("!!a") == .not(.not(.text("a"))))
        #expect(try parse("wow!") == .text("wow!"))
    }

    @Test func keywordsAndKeysIgnoreCase() throws {
        #expect(try parse("a OR b AnD NOT c") == .or(.text("a"), .and(.text("b"), .not(.text("c")))))
        #expect(try parse("PROJECT:Home") == .project("Home"))
        #expect(try parse("Pri.Above:h") == .priorityAbove(.high))
        #expect(try parse("Status:Waiting") == .status(.waiting))
        #expect(try parse("DUE:NONE") == .dueNone)
        #expect(try parse("OVERDUE Recurring") == .and(.overdue, .recurring))
    }

    @Test func keywordsInQuotesAreTitleText() throws {
        #expect(try parse("\"or\" \"overdue\"") == .and(.text("or"), .text("overdue")))
    }

    @Test func wordsWithColonsThatAreNotKeysStayTitleText() throws {
        #expect(try parse("https://example.com/a") == .text("https://example.com/a"))
        #expect(try parse("12:30") == .text("12:30"))
        #expect(try parse("a-b:c") == .text("a-b:c"))
        #expect(try parse("note:") == .text("note:"))
        #expect(try parse("\"foo:bar\"") == .text("foo:bar"))
    }

    @Test func aWordNotStartingAPatternKeepsItsSlashes() throws {
        #expect(try parse("a/b") == .text("a/b"))
    }

    @Test func mentionsStatusLooksEverywhere() throws {
        #expect(try parse("+a or not (b status:completed)").mentionsStatus)
        #expect(try !parse("+a or not (b overdue)").mentionsStatus)
    }
}

/// The canonical text of a query, and that it reads back as the same query.
@Suite struct QueryCanonicalTextTests {
    @Test(arguments: [
        ("+home milk", "+home and milk"),
        ("a or b and c", "a or b and c"),
        ("(a or b) c", "(a or b) and c"),
        ("a (b c)", "a and (b and c)"),
        ("a or (b or c)", "a or (b or c)"),
        ("!(a or b)", "not (a or b)"),
        ("!+x", "-x"),
        ("not -x", "not -x"),
        ("not (a b)", "not (a and b)"),
        ("PRO:Home pri:h pri.above:none due:NONE", "project:Home and priority:H and priority.above:none and due:none"),
        ("due:\"next friday\"", "due:\"next friday\""),
        ("due:\"none\"", "due:\"none\""),
        ("due:\"/x\"", "due:\"/x\""),
        ("\"buy milk\"", "\"buy milk\""),
        ("\"or\"", "\"or\""),
        ("\"+x\"", "\"+x\""),
        ("\"a:b\"", "\"a:b\""),
        ("\"back\\\\slash\"", "\"back\\\\slash\""),
        ("/a\\/b/", "/a\\/b/"),
        ("/a\\\\/", "/a\\\\/"),
        ("STATUS:all OVERDUE recurring", "status:all and overdue and recurring"),
        ("", ""),
    ])
    func canonicalText(text: String, canonical: String) throws {
        let query = try parse(text)
        #expect(query.description == canonical)
        #expect(try parse(query.description) == query)
    }

    /// A combining mark joins the character before it (`"` + U+0301 is one
    /// character), so the lexer reads scalars: a quote stays a quote.
    @Test func combiningMarksDoNotSwallowDelimiters() throws {
        #expect(try parse("\"\u{301}x\"") == .text("\u{301}x"))
        #expect(try parse("a \u{301}b") == .and(.text("a"), .text("\u{301}b")))
        for query: Query in [.text("\u{301}x"), .text("x\u{301}\"y"), .and(.text("\t"), .text("\u{301}")), .regex("\u{301}/")] {
            #expect(try parse(query.description) == query, "\(query.description)")
        }
    }

    /// Trees the parser cannot make from left-grouped text still print so that they read back.
    @Test func rightNestedTreesKeepTheirShape() throws {
        let queries: [Query] = [
            .and(.text("a"), .and(.text("b"), .text("c"))),
            .or(.text("a"), .or(.text("b"), .text("c"))),
            .not(.not(.tag("x"))),
            .not(.and(.not(.text("a")), .or(.tag("b"), .regex("c/d")))),
            .and(.or(.text("a"), .text("b")), .or(.text("c"), .text("d"))),
            .text("say \"hi\" (now)"),
            .dueBefore("next fri 14:00"),
        ]
        for query in queries {
            #expect(try parse(query.description) == query, "\(query.description)")
        }
    }
}
