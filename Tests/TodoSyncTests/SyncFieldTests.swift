import Testing

@testable import TodoSync

/// What the merge compares: which properties make one field (done-ness,
/// notes, repetition), which are no field at all (the stamps and the
/// identity), and when two spellings say the same thing — tags in any case
/// and order, priorities by todod's three levels, done by any of STATUS or
/// COMPLETED, notes by their text and not todod's dated copies.
@Suite struct SyncFieldTests {
    @Test(arguments: ["UID", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "CREATED"])
    func theStampsAndTheIdentityAreNoField(name: String) {
        #expect(SyncField.of(name) == nil)
    }

    @Test func propertiesThatSayOneThingTogetherAreOneField() {
        #expect(["STATUS", "COMPLETED", "PERCENT-COMPLETE"].map(SyncField.of) == ["STATUS", "STATUS", "STATUS"])
        #expect(["DESCRIPTION", "X-TODOD-NOTE"].map(SyncField.of) == ["DESCRIPTION", "DESCRIPTION"])
        #expect(["RRULE", "X-TODOD-RECURRENCE", "RDATE", "EXDATE"].map(SyncField.of) == ["RRULE", "RRULE", "RRULE", "RRULE"])
        #expect(["SUMMARY", "DUE", "URL", "X-MOZ-GENERATION", "RELATED-TO"].map(SyncField.of) == ["SUMMARY", "DUE", "URL", "X-MOZ-GENERATION", "RELATED-TO"])
    }

    @Test func aNestedComponentIsTheFieldOfItsKind() {
        #expect(SyncField.ofComponent(["BEGIN:VALARM", "ACTION:DISPLAY", "END:VALARM"]) == "BEGIN:VALARM")
        #expect(SyncField.ofComponent(["begin:valarm", "end:valarm"]) == "BEGIN:VALARM")
        #expect(SyncField.ofComponent(["BEGIN:X-TASKS-ORG-LOCATION", "END:X-TASKS-ORG-LOCATION"]) == "BEGIN:X-TASKS-ORG-LOCATION")
    }

    @Test func theFieldsOfAToDoComeOnceEachInTheOrderOfTheirProperties() throws {
        let todo = try todo([
            "UID:a", "DTSTAMP:20261211T081500Z", "SUMMARY:x", "STATUS:COMPLETED", "CATEGORIES:a", "COMPLETED:20261211T081500Z",
            "CATEGORIES:b", "BEGIN:VALARM", "ACTION:DISPLAY", "END:VALARM", "X-TODOD-NOTE:n", "DESCRIPTION:n",
            "BEGIN:VALARM", "ACTION:AUDIO", "END:VALARM",
        ])
        #expect(SyncField.fields(of: todo) == ["SUMMARY", "STATUS", "CATEGORIES", "DESCRIPTION", "BEGIN:VALARM"])
    }

    @Test func doneIsDoneWhicheverPropertySaysIt() throws {
        func status(_ lines: String...) throws -> [String]? { SyncField.value(of: "STATUS", in: try todo(["UID:a"] + lines)) }
        #expect(try status("STATUS:COMPLETED") == ["COMPLETED"])
        #expect(try status("STATUS:completed") == ["COMPLETED"])
        #expect(try status("COMPLETED:20261211T070000Z") == ["COMPLETED"])
        #expect(try status("COMPLETED:20261211T070000Z", "PERCENT-COMPLETE:100") == ["COMPLETED"])
        #expect(try status("STATUS:COMPLETED", "COMPLETED:20261211T070000Z", "PERCENT-COMPLETE:100") == ["COMPLETED"])
        // Needs action is what no status says; how far along counts.
        #expect(try status("STATUS:NEEDS-ACTION") == nil)
        #expect(try status("STATUS:IN-PROCESS", "PERCENT-COMPLETE:40") == ["IN-PROCESS", "40%"])
        #expect(try status("STATUS:IN-PROCESS", "PERCENT-COMPLETE:60") != status("STATUS:IN-PROCESS", "PERCENT-COMPLETE:40"))
        #expect(try status("PERCENT-COMPLETE:40") == ["40%"])
        #expect(try status("PERCENT-COMPLETE:0") == nil)
        #expect(try status("STATUS:CANCELLED") == ["CANCELLED"])
        #expect(try status() == nil)
    }

    @Test func notesAreTheDescriptionsLinesNotTodoDsDatedCopies() throws {
        let todod = try CalendarResource(parsing: Written.todod).todo
        #expect(SyncField.value(of: "DESCRIPTION", in: todod) == ["the organic one", "from the market"])
        // A calendar that dropped the X- lines, with its own spacing and an HTML twin.
        let calendar = try todo([
            "UID:a", "DESCRIPTION;ALTREP=\"data:text/html,%3Cp%3Ethe%20organic%20one%3C%2Fp%3E\":  the organic one\\n\\nfrom the market \\n",
        ])
        #expect(SyncField.value(of: "DESCRIPTION", in: calendar) == SyncField.value(of: "DESCRIPTION", in: todod))
        // The X- lines alone are notes a calendar deleted; an empty description is none.
        #expect(SyncField.value(of: "DESCRIPTION", in: try todo(["UID:a", "X-TODOD-NOTE;X-ADDED=20261201T083000Z:the organic one"])) == nil)
        #expect(SyncField.value(of: "DESCRIPTION", in: try todo(["UID:a", "DESCRIPTION:\\n \\n"])) == nil)
        // Changed text is a change.
        #expect(SyncField.value(of: "DESCRIPTION", in: try todo(["UID:a", "DESCRIPTION:the organic one"])) == ["the organic one"])
    }

    @Test func tagsAreASetInAnyCaseOverEveryCategoriesLine() throws {
        func tags(_ lines: String...) throws -> [String]? { SyncField.value(of: "CATEGORIES", in: try todo(["UID:a"] + lines)) }
        #expect(try tags("CATEGORIES:a,b") == tags("CATEGORIES:B,A"))
        #expect(try tags("CATEGORIES:Work,Home") == ["home", "work"])
        #expect(try tags("CATEGORIES:home", "CATEGORIES:work,HOME") == ["home", "work"])
        #expect(try tags("CATEGORIES:errands\\, small") == ["errands, small"])
        #expect(try tags("CATEGORIES:a,b") != tags("CATEGORIES:a"))
        #expect(try tags("CATEGORIES:") == nil)
        #expect(try tags() == nil)
    }

    @Test func prioritiesAreTodoDsThreeLevels() throws {
        func priority(_ value: String) throws -> [String]? { SyncField.value(of: "PRIORITY", in: try todo(["UID:a", "PRIORITY:" + value])) }
        #expect(try (1...4).map { try priority("\($0)") } == Array(repeating: ["high"], count: 4))
        #expect(try priority("5") == ["medium"])
        #expect(try (6...9).map { try priority("\($0)") } == Array(repeating: ["low"], count: 4))
        #expect(try priority("0") == nil)  // RFC 5545: undefined
        #expect(try priority(" 2 ") == ["high"])
        #expect(try priority("urgent") == nil)
        #expect(SyncField.value(of: "PRIORITY", in: try todo(["UID:a"])) == nil)
    }

    @Test func otherPropertiesAreTheirLinesWithParametersInOneSpelling() throws {
        let thunderbird = try todo(["UID:a", "DUE;TZID=Europe/Berlin;VALUE=DATE-TIME:20261211T180000"])
        let other = try todo(["UID:a", "due;value=DATE-TIME;tzid=Europe/Berlin:20261211T180000"])
        #expect(SyncField.value(of: "DUE", in: thunderbird) == ["DUE;TZID=Europe/Berlin;VALUE=DATE-TIME:20261211T180000"])
        #expect(SyncField.value(of: "DUE", in: thunderbird) == SyncField.value(of: "DUE", in: other))
        let moved = try todo(["UID:a", "DUE;TZID=Europe/Lisbon;VALUE=DATE-TIME:20261211T180000"])
        #expect(SyncField.value(of: "DUE", in: thunderbird) != SyncField.value(of: "DUE", in: moved))
        #expect(SyncField.value(of: "DUE", in: try todo(["UID:a"])) == nil)
        // A repeated property is a set of its lines.
        let links = try todo(["UID:a", "RELATED-TO;RELTYPE=PARENT:p", "RELATED-TO;RELTYPE=DEPENDS-ON:d"])
        let swapped = try todo(["UID:a", "RELATED-TO;RELTYPE=DEPENDS-ON:d", "RELATED-TO;RELTYPE=PARENT:p"])
        #expect(SyncField.value(of: "RELATED-TO", in: links) == SyncField.value(of: "RELATED-TO", in: swapped))
        #expect(SyncField.value(of: "RELATED-TO", in: links)?.count == 2)
    }

    @Test func theRepetitionIsTheRuleWithTodoDsReadingOfIt() throws {
        let calendar = try todo(["UID:a", "RRULE:FREQ=WEEKLY;BYDAY=FR"])
        let todod = try todo(["UID:a", "RRULE:FREQ=WEEKLY;BYDAY=FR", "X-TODOD-RECURRENCE:every friday from completion"])
        #expect(SyncField.value(of: "RRULE", in: calendar) != SyncField.value(of: "RRULE", in: todod))
        #expect(SyncField.value(of: "RRULE", in: todod)?.count == 2)
    }

    @Test func alarmsAreComparedWholeInAnyOrder() throws {
        let first = ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM"]
        let second = ["BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:-PT1H", "END:VALARM"]
        let both = try todo(["UID:a"] + first + second)
        let swapped = try todo(["UID:a"] + second + first)
        #expect(SyncField.value(of: "BEGIN:VALARM", in: both) == SyncField.value(of: "BEGIN:VALARM", in: swapped))
        #expect(SyncField.value(of: "BEGIN:VALARM", in: both)?.count == 2)
        let changed = try todo(["UID:a"] + first.map { $0.replacingOccurrences(of: "15M", with: "10M") } + second)
        #expect(SyncField.value(of: "BEGIN:VALARM", in: both) != SyncField.value(of: "BEGIN:VALARM", in: changed))
        #expect(SyncField.value(of: "BEGIN:VALARM", in: try todo(["UID:a"])) == nil)
    }
}
