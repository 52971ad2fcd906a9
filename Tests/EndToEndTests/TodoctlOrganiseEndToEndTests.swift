import Foundation
import Testing

/// Organising real work through `todoctl` and the real daemon: shorthand,
/// modify, notes, show, queries, bulk commands as one transaction, and
/// named views that survive a restart.
@Suite struct TodoctlOrganiseEndToEndTests {
    @Test func shorthandModifyNotesAndShow() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        let added = try await todoctl("add", "buy", "milk", "+errands", "pro:home", "pri:H", "due:2999-12-24", socket: socket)
        #expect(added.stdout == "1  [ ] buy milk  (due 2999-12-24)  H · home · +errands\n", "\(added.stderr)")
        // "--" ends the shorthand; --literal takes every word as title.
        #expect(try await todoctl("add", "--", "+1", "for", "Bob", socket: socket).stdout == "2  [ ] +1 for Bob\n")
        #expect(try await todoctl("add", "--literal", "pri:H", "stays", socket: socket).stdout == "3  [ ] pri:H stays\n")
        // A word like -20% is a title, not an option.
        #expect(try await todoctl("add", "-20%", "sale", socket: socket).stdout == "4  [ ] -20% sale\n")

        let modified = try await todoctl("modify", "1", "2", "-errands", "+Shop", "pri:", "project:work.q4", socket: socket)
        #expect(modified.status == 0, "\(modified.stderr)")
        #expect(modified.stdout == "1  [ ] buy milk  (due 2999-12-24)  work.q4 · +Shop\n2  [ ] +1 for Bob  work.q4 · +Shop\n")
        // One transaction, one undo step, and undo says what came back.
        let undone = try await todoctl("undo", socket: socket)
        #expect(undone.stdout.hasPrefix("undid: modify “buy milk”, modify “+1 for Bob” (2 items changed)"), "\(undone.stdout)")
        #expect(try await todoctl("redo", socket: socket).status == 0)

        #expect(try await todoctl("note", "1", "called", "the", "shop", socket: socket).stdout.contains("1 note"))
        #expect(try await todoctl("note", "1", "second", "note", socket: socket).stdout.contains("2 notes"))
        #expect(try await todoctl("note", "1", "--remove", "1", socket: socket).stdout.contains("1 note"))
        let missingNote = try await todoctl("note", "1", "--remove", "5", socket: socket)
        #expect(missingNote.status == 66)
        #expect(missingNote.stderr.contains("has 1 note; there is no note 5"), "\(missingNote.stderr)")

        let shown = try await todoctl("show", "1", socket: socket)
        #expect(shown.stdout.hasPrefix("1  buy milk\nstatus      pending\n"), "\(shown.stdout)")
        for line in ["project     work.q4", "tags        +Shop", "1. ", "second note", "notes changed", "tags changed"] {
            #expect(shown.stdout.contains(line), "no \(line) in \(shown.stdout)")
        }
        let json = try await todoctl("show", "1", "--json", socket: socket)
        let details = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((details["notes"] as? [[String: Any]])?.map { $0["text"] as? String } == ["second note"])
        #expect(((details["item"] as? [String: Any])?["tags"] as? [String]) == ["Shop"])

        // Refusals name what was wrong, and where.
        let badDate = try await todoctl("add", "x", "due:someday", socket: socket)
        #expect(badDate.status == 65)
        #expect(badDate.stderr.contains("expected a date such as today, tomorrow"), "\(badDate.stderr)")
        let badTag = try await todoctl("add", "x", "+a/b", socket: socket)
        #expect(badTag.status == 65)
        #expect(badTag.stderr.contains("at 4: \"+a/b\" is not a tag"), "\(badTag.stderr)")
        // A date in a query is refused where it stands, before any item is looked at.
        let badQueryDate = try await todoctl("ls", "+Shop", "due.before:someday", socket: socket)
        #expect(badQueryDate.status == 65)
        #expect(badQueryDate.stderr.contains("at 17: expected a date such as today"), "\(badQueryDate.stderr)")
        // After --, a word with a colon and spaces is title text as typed, not re-quoted.
        let literal = try await todoctl("add", "--", "Re:budget review", socket: socket)
        #expect(literal.stdout.hasSuffix("  [ ] Re:budget review\n"), "\(literal)")
    }

    @Test func queriesAndBulkCommandsAreOneTransaction() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        for index in 1...7 { _ = try await todoctl("add", "errand \(index)", "+errands", socket: socket) }
        _ = try await todoctl("add", "write report", "+work", "due:1999-01-01", socket: socket)

        let listed = try await todoctl("ls", "+errands", "and", "not", "/[67]/", socket: socket)
        #expect(listed.stdout.hasPrefix("own listing · query +errands and not /[67]/ · filter active · sort created\n1  [ ] errand 1"), "\(listed.stdout)")
        #expect(listed.stdout.contains("5 items left"), "\(listed.stdout)")
        let overdue = try await todoctl("ls", "overdue", socket: socket)
        #expect(overdue.stdout.contains("8  [ ] write report") && !overdue.stdout.contains("errand"), "\(overdue.stdout)")
        let badQuery = try await todoctl("ls", "+errands", "and", "(", socket: socket)
        #expect(badQuery.status == 65)
        #expect(badQuery.stderr.contains("at "), "\(badQuery.stderr)")

        // More than 5 matches and no terminal: refused unless --yes; --dry-run lists them.
        let unconfirmed = try await todoctl("done", "+errands", socket: socket)
        #expect(unconfirmed.status == 64)
        #expect(unconfirmed.stderr.contains("--yes"), "\(unconfirmed.stderr)")
        let dry = try await todoctl("done", "+errands", "--dry-run", socket: socket)
        #expect(dry.stdout.hasPrefix("would mark 7 items done:\n"), "\(dry.stdout)")
        #expect(try await todoctl("ls", "status:completed", socket: socket).stdout.contains("0 items left"))
        let done = try await todoctl("done", "+errands", "--yes", socket: socket)
        #expect(done.stdout.split(separator: "\n").count == 7, "\(done.stdout)")
        #expect(try await todoctl("undo", socket: socket).stdout.contains("(7 items changed)"))

        // Ids are one transaction too: one unknown id changes nothing.
        let partial = try await todoctl("done", "1", "99", socket: socket)
        #expect(partial.status == 66)
        #expect(partial.stderr.contains("Item 99: There is no to-do item with id 99"), "\(partial.stderr)")
        #expect(try await todoctl("ls", "status:completed", socket: socket).stdout.contains("No items match status:completed"))
        _ = try await todoctl("rm", "1", "2", socket: socket)
        #expect(try await todoctl("undo", socket: socket).stdout.contains("2 items are back"))
    }

    @Test func namedViewsAreSharedAndSurviveARestart() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socket
        _ = try await todoctl("add", "b task", "pro:home", "pri:L", socket: socket)
        _ = try await todoctl("add", "a task", "pro:home", "pri:H", socket: socket)
        _ = try await todoctl("add", "elsewhere", socket: socket)

        let saved = try await todoctl("view", "save", "home", "project:home", "--sort", "priority", "--group", "project", socket: socket)
        #expect(saved.stdout == "@home  ·  project:home  ·  sort priority  ·  grouped by project  ·  2 items left\n", "\(saved.stdout)\(saved.stderr)")
        let shown = try await todoctl("ls", "@home", socket: socket)
        #expect(shown.stdout == "view home · query project:home · filter all · sort priority · grouped by project\nhome\n2  [ ] a task  H · home\n1  [ ] b task  L · home\n2 items left\n", "\(shown.stdout)")

        #expect(try await daemon.terminate() == 0)
        try await daemon.start()
        let views = try await todoctl("view", "ls", socket: socket)
        #expect(views.stdout.contains("@home  ·  project:home"), "\(views.stdout)")
        #expect(views.stdout.contains("@main"), "\(views.stdout)")
        #expect(try await todoctl("ls", "@home", socket: socket).stdout.contains("2  [ ] a task"))

        let main = try await todoctl("view", "rm", "main", socket: socket)
        #expect(main.status == 65)
        #expect(try await todoctl("view", "rm", "home", socket: socket).stdout == "removed view home\n")
        let gone = try await todoctl("ls", "@home", socket: socket)
        #expect(gone.status == 66)
        #expect(gone.stderr.contains("no view named \"home\""), "\(gone.stderr)")
    }
}
