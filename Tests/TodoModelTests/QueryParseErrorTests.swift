import Testing
import TodoModel

/// Malformed queries are refused with the place, what was wanted and what was there.
@Suite struct QueryParseErrorTests {
    private func parseError(_ text: String) -> QueryParseError? {
        do {
            _ = try Query.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        // (query, position, a piece of the message)
        ("+home and (a or b", 17, "expected \")\" to close \"(\" at 10, found the end of the query"),
        ("(a or b c", 9, "to close \"(\" at 0"),
        ("a or", 4, "expected a term after \"or\" at 2, found the end of the query"),
        ("or a", 0, "expected a term, found \"or\""),
        ("a and", 5, "expected a term after \"and\" at 2"),
        ("a or or b", 5, "found \"or\""),
        ("()", 1, "expected a term inside \"(\" at 0, found \")\""),
        ("a ( ) b", 4, "inside \"(\" at 2"),
        ("a)", 1, "expected the end of the query, found \")\""),
        ("not", 3, "expected a term after \"not\" at 0, found the end of the query"),
        ("a !", 3, "after \"!\" at 2"),
        ("foo:bar", 0, "expected one of the keys project, pro, priority"),
        ("milk \"half fat", 14, "to close the quote opened at 5"),
        ("\"\"", 0, "text between the quotes"),
        ("/unclosed", 9, "\"/\" to close the pattern opened at 0"),
        ("a /(/", 2, "expected a valid regular expression, found /(/"),
        ("//", 0, "a pattern between the slashes"),
        ("+", 1, "expected a tag name after \"+\", found the end of the query"),
        ("+a:b", 2, "\":\" cannot be part of a tag name"),
        ("--x", 1, "cannot start with \"-\""),
        ("project:home..garden", 13, "empty part"),
        ("project:", 8, "a project path"),
        ("priority:X", 9, "a priority H, M, L or none"),
        ("status:open", 7, "a status (pending, completed, waiting, expired, all)"),
        ("due.before:\"  \"", 11, "a date after \"due.before:\""),
        ("due:", 4, "a date after \"due:\""),
        ("due.before:", 11, "expected a date after \"due.before:\", found the end of the query"),
        ("due.before: fri", 11, "found \"fri\"; put the date right after the colon, as in due.before:fri"),
        ("(due.before:)", 12, "expected a date after \"due.before:\", found \")\""),
        ("\"half fat", 9, "found the end of the query"),
        ("+work due.before:someday", 17, "expected a date such as today, tomorrow, fri"),
        ("a or due.after:\"31 feb\"", 15, "found \"31 feb\" (there is no 31 February)"),
        ("due:\"fri 18:00+01:00\"", 4, "found \"fri 18:00+01:00\" (a time zone offset is read only after"),
    ])
    func reportsWhereAndWhat(text: String, position: Int, message: String) throws {
        let error = try #require(parseError(text))
        #expect(error.position == position, "\(error)")
        #expect(error.description.contains(message), "\(error)")
        #expect((0...text.count).contains(error.position))
    }

    @Test func datesAreCheckedWhenReadAndResolvedLater() throws {
        #expect(try Query.parse("due.before:fri due:none due.after:\"24 dec 18:00\"") ==
            .and(.and(.dueBefore("fri"), .dueNone), .dueAfter("24 dec 18:00")))
        // A caller resolving dates its own way reads what it can resolve.
        #expect(try Query.parse("due:someday", checkingDates: { _ in }) == .dueOn("someday"))
    }

    @Test func positionsCountCharactersNotBytes() throws {
        let error = try #require(parseError("café (a"))
        #expect(error.position == 7)
    }

    @Test func anUnknownKeySuggestsQuoting() throws {
        let error = try #require(parseError("mailto:someone"))
        #expect(error.hint?.contains("quotes") == true)
        #expect(try Query.parse("\"mailto:someone\"") == .text("mailto:someone"))
    }

    @Test func theMessageHasTheAgreedShape() throws {
        let error = try #require(parseError("(+home or +work"))
        #expect(error.description == "at 15: expected \")\" to close \"(\" at 0, found the end of the query")
    }
}

@Suite struct QueryParseErrorPositionTests {
    /// Positions are in characters even where the lexer has split one into scalars.
    @Test func positionsInsideCombinedCharactersPointAtTheCharacter() throws {
        do {
            _ = try Query.parse("e\u{301}e\u{301} +a\u{301}:b")
            Issue.record("expected an error")
        } catch {
            #expect(error.position == 5, "\(error)")
        }
        do {
            _ = try Query.parse("(\"\u{301}")
            Issue.record("expected an error")
        } catch {
            #expect(error.position == 2, "\(error)")
        }
    }
}
