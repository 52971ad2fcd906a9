import Foundation
import Testing
import TodoModel

@testable import TodoInterchange

@Suite struct TaskwarriorDataDirectoryTests {
    /// What Debian's `task` 2.6.2 wrote to pending.data, and then printed for
    /// `task export`, for a task with brackets, quotes, a slash, a backspace
    /// and a tab in its description, an annotation with a bracket and
    /// characters outside ASCII, two tags, a numeric, a date and a string UDA
    /// (`uda.estimate.type=numeric`, `reviewed` date, `size` string); a
    /// recurring template; a waiting task with `scheduled`; a dependency; and
    /// an occurrence with `imask`.
    static let pending = #"""
        [annotation_1795776513:"note with &close; bracket and é ☃ 😀" description:"Buy &open;milk&close; \"full\" \/ fat\back\ttab" due:"1894665600" entry:"1795776513" estimate:"3.5" modified:"1795776513" priority:"H" project:"home.errands" reviewed:"1890777600" size:"M" status:"pending" tags:"home,shop" tags_home:"x" tags_shop:"x" uuid:"dd1e7950-7944-4aaa-8dbd-8f6143d26a31"]
        [description:"Pay rent" due:"1896134400" entry:"1795776513" mask:"-" modified:"1795776513" project:"money" recur:"monthly" rtype:"periodic" status:"recurring" until:"1924992000" uuid:"ffb19239-407f-41d7-8bb6-becb67da30d4"]
        [description:"Write report" due:"1894285800" entry:"1795776513" modified:"1795776513" scheduled:"1893628800" status:"pending" tags:"work" tags_work:"x" uuid:"68273c39-df8d-41a1-b156-5ec2577c54fc" wait:"1893801600"]
        [dep_dd1e7950-7944-4aaa-8dbd-8f6143d26a31:"x" depends:"dd1e7950-7944-4aaa-8dbd-8f6143d26a31" description:"dependent" entry:"1795776513" modified:"1795776513" status:"pending" uuid:"947f68ed-f35a-43d0-9c38-e428fcfd2e32"]
        [description:"Pay rent" due:"1896134400" entry:"1795776513" imask:"0" modified:"1795776513" parent:"ffb19239-407f-41d7-8bb6-becb67da30d4" project:"money" recur:"monthly" rtype:"periodic" status:"pending" until:"1924992000" uuid:"66c2d546-7838-4cbf-86fc-6c051c6d804d"]

        """#
    static let completed = #"""
        [description:"Filed taxes" end:"1795776513" entry:"1795776513" modified:"1795776513" priority:"M" status:"completed" uuid:"0c78e494-e05d-4472-a11d-41aeb20f5aee"]
        [description:"gone" end:"1795776513" entry:"1795776513" modified:"1795776513" status:"deleted" uuid:"5e5cc372-8fe3-4f06-9834-26ad1b9f563d"]

        """#
    /// `task export` of the same directory, `urgency` left out.
    static let export = #"""
        [
        {"id":1,"description":"Buy [milk] \"full\" \/ fat\back\ttab","due":"20300115T000000Z","entry":"20261127T104833Z","estimate":3.5,"modified":"20261127T104833Z","priority":"H","project":"home.errands","reviewed":"20291201T000000Z","size":"M","status":"pending","uuid":"dd1e7950-7944-4aaa-8dbd-8f6143d26a31","annotations":[{"entry":"20261127T104833Z","description":"note with ] bracket and é ☃ 😀"}],"tags":["home","shop"]},
        {"id":2,"description":"Pay rent","due":"20300201T000000Z","entry":"20261127T104833Z","mask":"-","modified":"20261127T104833Z","project":"money","recur":"monthly","rtype":"periodic","status":"recurring","until":"20310101T000000Z","uuid":"ffb19239-407f-41d7-8bb6-becb67da30d4"},
        {"id":3,"description":"Write report","due":"20300110T143000Z","entry":"20261127T104833Z","modified":"20261127T104833Z","scheduled":"20300103T000000Z","status":"pending","uuid":"68273c39-df8d-41a1-b156-5ec2577c54fc","wait":"20300105T000000Z","tags":["work"]},
        {"id":4,"description":"dependent","entry":"20261127T104833Z","modified":"20261127T104833Z","status":"pending","uuid":"947f68ed-f35a-43d0-9c38-e428fcfd2e32","depends":["dd1e7950-7944-4aaa-8dbd-8f6143d26a31"]},
        {"id":5,"description":"Pay rent","due":"20300201T000000Z","entry":"20261127T104833Z","imask":0,"modified":"20261127T104833Z","parent":"ffb19239-407f-41d7-8bb6-becb67da30d4","project":"money","recur":"monthly","rtype":"periodic","status":"pending","until":"20310101T000000Z","uuid":"66c2d546-7838-4cbf-86fc-6c051c6d804d"},
        {"id":0,"description":"Filed taxes","end":"20261127T104833Z","entry":"20261127T104833Z","modified":"20261127T104833Z","priority":"M","status":"completed","uuid":"0c78e494-e05d-4472-a11d-41aeb20f5aee"},
        {"id":0,"description":"gone","end":"20261127T104833Z","entry":"20261127T104833Z","modified":"20261127T104833Z","status":"deleted","uuid":"5e5cc372-8fe3-4f06-9834-26ad1b9f563d"}
        ]
        """#

    private func directory(pending: String? = nil, completed: String? = nil, types: [String: String] = [:]) throws(ImportProblem)
        -> TaskwarriorDataDirectory
    {
        var files: [TaskwarriorDataDirectory.DataFile] = []
        if let pending { files.append(.init(name: "pending.data", bytes: Array(pending.utf8))) }
        if let completed { files.append(.init(name: "completed.data", bytes: Array(completed.utf8))) }
        return try TaskwarriorDataDirectory(files: files, userAttributeTypes: types)
    }

    private func tasks(_ json: String) throws -> [NSDictionary] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [NSDictionary])
    }

    /// The first task of a one-line pending.data, as JSON.
    private func task(_ line: String, types: [String: String] = [:]) throws -> NSDictionary {
        try #require(try tasks(try directory(pending: line, types: types).exportText).first)
    }

    @Test func isWhatTaskExportPrintsForTheSameFiles() throws {
        let read = try directory(
            pending: Self.pending, completed: Self.completed, types: ["estimate": "numeric", "reviewed": "date", "size": "string"])
        #expect(try tasks(read.exportText) == (try tasks(Self.export)))
        #expect(read.sources == (1...5).map { "pending.data line \($0)" } + ["completed.data line 1", "completed.data line 2"])
    }

    @Test func itImportsAsAnExportAndWhatTheImportRefusesIsPlacedInTheFiles() throws {
        let read = try directory(pending: Self.pending, completed: Self.completed)
        // A title that would not show as one line (a backspace, a tab) is refused, as from `task export`.
        #expect(throws: ImportProblem(location: "task 1", message: "\(TodoError.titleHasControlCharacters)")) {
            try TaskwarriorFormat.read(read.exportText, timeZone: .berlin)
        }
        #expect(read.locating("task 1: the title is wrong") == "pending.data line 1: the title is wrong")
        let clean = try directory(pending: String(Self.pending.split(separator: "\n").dropFirst().joined(separator: "\n")), completed: Self.completed)
        let batch = try TaskwarriorFormat.read(clean.exportText, timeZone: .berlin)
        #expect(batch.items.map(\.title) == ["Pay rent", "Write report", "dependent", "Filed taxes"])
        #expect(batch.items[0].recurrence == .monthly)
        #expect(batch.skipped.map(\.title) == ["gone"])
    }

    @Test func userAttributesWithoutTheirTypesComeOverAsStored() throws {
        let milk = try task(String(Self.pending.split(separator: "\n")[0]))
        #expect(milk["estimate"] as? String == "3.5")
        #expect(milk["reviewed"] as? String == "1890777600")
        #expect(milk["size"] as? String == "M")
        // Given a type its value does not have, a value is still kept as stored.
        let odd = try task(#"[uuid:"u" reviewed:"soon" estimate:"many"]"#, types: ["reviewed": "date", "estimate": "numeric"])
        #expect(odd["reviewed"] as? String == "soon")
        #expect(odd["estimate"] as? String == "many")
    }

    @Test func theTaskrcSaysWhichTypeEachUserAttributeHas() {
        let rc = """
            # a comment
            data.location=~/.task
            uda.estimate.type = numeric   # hours
            uda.reviewed.type=date
            uda.size.values=S,M,L
            include /usr/share/taskwarrior/dark-256.theme
            """
        #expect(TaskwarriorDataDirectory.userAttributeTypes(inTaskrc: rc) == ["estimate": "numeric", "reviewed": "date"])
    }

    @Test func escapesAreUndoneAsTaskwarriorUndoesThem() throws {
        func description(_ value: String) throws -> String? {
            try task(#"[description:"\#(value)" uuid:"u"]"#)["description"] as? String
        }
        #expect(try description(#"back\\slash\nnew line &open;x&close; & amp"#) == "back\\slash\nnew line [x] & amp")
        #expect(try description(#"say \"hi\" \/ \r\f"#) == "say \"hi\" / \r\u{C}")
        #expect(try description(#"caf\u00e9 \u2603 \ud83d\ude00"#) == "café ☃ 😀")
        // A lone surrogate is U+FFFD; an escape Taskwarrior does not know keeps its backslash.
        #expect(try description(#"\ud83d alone"#) == "\u{FFFD} alone")
        #expect(try description(#"\x41 \u12"#) == "\\x41 \\u12")
        // An escaped backslash before the closing quote does not escape it.
        #expect(try description(#"ends in \\"#) == "ends in \\")
        #expect(try description("") == nil)
    }

    @Test func tagsAndDependenciesAreReadInBothForms() throws {
        // 2.5 and before: only the lists. 2.6: also one attribute each.
        let old = try task(#"[description:"x" tags:"shop,home,,shop" depends:"b,a" uuid:"u"]"#)
        #expect(old["tags"] as? [String] == ["home", "shop"])
        #expect(old["depends"] as? [String] == ["a", "b"])
        let new = try task(#"[description:"x" tags_work:"x" dep_c:"x" tags:"home" uuid:"u"]"#)
        #expect(new["tags"] as? [String] == ["home", "work"])
        #expect(new["depends"] as? [String] == ["c"])
        #expect(new["tags_work"] == nil && new["dep_c"] == nil)
    }

    @Test func datesAreConvertedAndOtherAttributesKeptAsTheyAre() throws {
        let read = try task(
            #"[description:"x" modification:"1700000100" start:"0" last:"3" template:"t-1" note:"a &open;b&close;" annotation_1700000050:"a note" annotation_999999999:"older" uuid:"u"]"#
        )
        #expect(read["modified"] as? String == "20231114T221500Z")
        #expect(read["modification"] == nil)
        #expect(read["start"] as? String == "19700101T000000Z")
        #expect(read["last"] as? Int == 3)
        #expect(read["template"] as? String == "t-1")
        #expect(read["note"] as? String == "a [b]")
        // In Taskwarrior's order, by attribute name.
        let annotations = try #require(read["annotations"] as? [[String: String]])
        #expect(annotations == [["entry": "20231114T221410Z", "description": "a note"], ["entry": "20010909T014639Z", "description": "older"]])
    }

    @Test func anUnreadableLineRefusesTheDirectoryNamingFileAndLine() {
        func problem(_ completed: String) -> ImportProblem? {
            do {
                _ = try directory(pending: #"[description:"fine" uuid:"a"]"#, completed: completed)
                return nil
            } catch { return error }
        }
        let good = #"[description:"done" status:"completed" uuid:"b"]"#
        #expect(problem("\(good)\nb83fc5e4 - [tag] description\n")?.description.hasPrefix("completed.data line 2: not a Taskwarrior 2.x task line") == true)
        #expect(problem(#"{"uuid":"b","description":"json"}"#)?.description.hasPrefix("completed.data line 1: a JSON task") == true)
        #expect(problem("\(good)\n\n" + #"[description:"open"#) == ImportProblem(location: "completed.data line 3", message: "the value of description has no closing quote"))
        #expect(problem(#"[description:"x" uuid:"b""#) == ImportProblem(location: "completed.data line 1", message: "the line ends without its closing ]"))
        #expect(problem(#"[description:"x"] trailing"#) == ImportProblem(location: "completed.data line 1", message: "\"trailing\" after the closing ]"))
        #expect(problem(#"[description:x]"#) == ImportProblem(location: "completed.data line 1", message: "the value of description is not in double quotes"))
        #expect(problem(#"[description "x"]"#)?.message.hasPrefix("expected name:\"value\" at \"description") == true)
        #expect(problem(#"[due:"tomorrow" uuid:"b"]"#) == ImportProblem(location: "completed.data line 1", message: "due \"tomorrow\" is not a Taskwarrior date (seconds since 1970)"))
        #expect(problem(#"[annotation_x:"note" uuid:"b"]"#)?.message == "annotation_x \"x\" is not a Taskwarrior date (seconds since 1970)")
        let latin1 = TaskwarriorDataDirectory.DataFile(name: "pending.data", bytes: Array(#"[description:"ok"]"#.utf8) + [10, 0x5B, 0xE9, 0x5D])
        #expect(throws: ImportProblem(location: "pending.data line 2", message: "not UTF-8 text")) {
            try TaskwarriorDataDirectory(files: [latin1])
        }
    }

    @Test func blankLinesAndCarriageReturnsAreSkippedAndLinesKeepTheirNumbers() throws {
        let read = try directory(pending: "\n" + #"[description:"a" uuid:"a"]"# + "\r\n  \n" + #"[description:"b" uuid:"b"]"#)
        #expect(read.sources == ["pending.data line 2", "pending.data line 4"])
        #expect(try tasks(read.exportText).map { $0["description"] as? String } == ["a", "b"])
        #expect(try directory(pending: "").exportText == "[\n]\n")
        #expect(try directory().sources.isEmpty)
    }

    @Test func whatTheImportSaysOfTaskNIsSaidOfItsFileAndLine() throws {
        let read = try directory(pending: Self.pending, completed: Self.completed)
        #expect(read.locating("task 6") == "completed.data line 1")
        #expect(read.locating("Nothing was imported: task 2: due \"x\" is wrong") == "Nothing was imported: pending.data line 2: due \"x\" is wrong")
        #expect(read.locating("Nothing was imported: task 7, annotation 1: empty") == "Nothing was imported: completed.data line 2, annotation 1: empty")
        // Not a place: no such task, another word, or only a task's own words.
        #expect(read.locating("task 8: x") == "task 8: x")
        #expect(read.locating("subtask 2: x") == "subtask 2: x")
        #expect(read.locating("Nothing was imported: the list changed while the import was planned (task 3).") == "Nothing was imported: the list changed while the import was planned (task 3).")
    }
}
