import Testing
import UserFiles

@Suite struct SettingsFileTests {
    @Test func linesAreKeysAndValuesWithBlanksTrimmedAndCommentsDropped() throws {
        let text = """
            # a comment line
              port = 8636   # after a blank, a comment
            host=todo.example.org
            url = https://cal.example/dav/#calendar
            empty =

            \tlog-level\t=\tdebug\r
            """
        let lines = try SettingsFile.lines(of: text, path: "/etc/x.conf")
        #expect(lines.map(\.key) == ["port", "host", "url", "empty", "log-level"])
        #expect(lines.map(\.value) == ["8636", "todo.example.org", "https://cal.example/dav/#calendar", "", "debug"])
        #expect(lines.map(\.place) == (["2", "3", "4", "5", "7"]).map { "/etc/x.conf line \($0)" })
    }

    @Test(arguments: [("just words", "just words"), ("= no key", "= no key"), ("   =", "=")])
    func aLineThatIsNotKeyEqualsValueIsNamedWithItsFileAndLine(_ line: String, shown: String) {
        #expect(throws: SettingsFileError("/x.conf line 2: expected 'key = value', got '\(shown)'")) {
            try SettingsFile.lines(of: "a = 1\n\(line)\n", path: "/x.conf")
        }
    }

    @Test func aProblemWithAValueHasTheSameFormat() throws {
        let line = try #require(try SettingsFile.lines(of: "\n\nport = x", path: "web.conf").first)
        #expect(line.problem("port must be a number") == "web.conf line 3: port must be a number")
    }
}

@Suite struct BaseDirectoriesTests {
    @Test func theVariablesAreUsedWhenAbsolute() {
        let directories = BaseDirectories(environment: [
            "HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg", "XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/state",
            "XDG_RUNTIME_DIR": "/run/user/1000",
        ])
        #expect(directories == BaseDirectories(environment: [:]).with(home: "/home/ann", config: "/cfg", data: "/data", state: "/state", runtime: "/run/user/1000"))
    }

    @Test(arguments: [nil, "", "relative/dir"])
    func anUnsetEmptyOrRelativeVariableFallsBackBelowHome(_ value: String?) {
        var environment = ["HOME": "/home/ann"]
        for name in ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"] { environment[name] = value }
        let directories = BaseDirectories(environment: environment)
        #expect(directories.configHome == "/home/ann/.config")
        #expect(directories.dataHome == "/home/ann/.local/share")
        #expect(directories.stateHome == "/home/ann/.local/state")
        #expect(directories.runtimeDirectory.hasPrefix("/run/user/"))
        #expect(directories.givenRuntimeDirectory == nil, "todoctl web's lead-in page then goes to the state directory")
    }

    @Test func withoutHomeThePasswordDatabaseSaysWhereItIs() {
        #expect(BaseDirectories(environment: [:]).home.hasPrefix("/"))
        #expect(BaseDirectories(environment: ["HOME": ""]).configHome.hasSuffix("/.config"))
    }
}

extension BaseDirectories {
    fileprivate func with(home: String, config: String, data: String, state: String, runtime: String) -> BaseDirectories {
        var copy = self
        (copy.home, copy.configHome, copy.dataHome, copy.stateHome, copy.runtimeDirectory) = (home, config, data, state, runtime)
        copy.givenRuntimeDirectory = runtime
        return copy
    }
}
