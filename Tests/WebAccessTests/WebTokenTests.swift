import Foundation
import Testing
import TestSupport
import WebAccess

/// The key to the page: made once, kept from other users, compared with care.
@Suite struct WebTokenTests {
    let folder: TemporaryDirectory
    let paths: WebPaths

    init() throws {
        folder = try TemporaryDirectory("web-token")
        paths = WebPaths(settingsFile: folder.file("web.conf"), stateDirectory: folder.file("state/todod-web"))
    }

    @Test func isMadeOnceReadableByItsOwnerOnlyAndThenKept() throws {
        let first = try WebToken.loadOrCreate(paths)
        #expect(WebToken.isWellFormed(first))
        let mode = try #require(FileManager.default.attributesOfItem(atPath: paths.tokenFile)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let folderMode = try #require(FileManager.default.attributesOfItem(atPath: paths.stateDirectory)[.posixPermissions] as? Int)
        #expect(folderMode == 0o700)
        #expect(try WebToken.loadOrCreate(paths) == first)
        #expect(try WebToken.load(paths) == first)
    }

    @Test func twoKeysAreNeverTheSame() {
        #expect(WebToken.fresh() != WebToken.fresh())
    }

    @Test func aKeyOthersCanReadIsRefused() throws {
        _ = try WebToken.loadOrCreate(paths)
        chmod(paths.tokenFile, 0o644)
        #expect(throws: WebAccessError("\(paths.tokenFile) can be read by others (mode 644): chmod 600 it, or remove it for a new key")) {
            try WebToken.load(paths)
        }
    }

    @Test func aFileThatHoldsNoKeyIsRefused() throws {
        try FileManager.default.createDirectory(atPath: paths.stateDirectory, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: paths.tokenFile, contents: Data("hunter2\n".utf8), attributes: [.posixPermissions: 0o600])
        #expect(throws: WebAccessError("\(paths.tokenFile) does not hold a key (64 hex digits): remove it, and a new one is made")) {
            try WebToken.loadOrCreate(paths)
        }
    }

    @Test func matchesOnlyTheWholeKey() {
        let key = WebToken.fresh()
        #expect(WebToken.matches(key, key))
        #expect(!WebToken.matches(key.dropLast(), key))
        #expect(!WebToken.matches(key + "0", key))
        #expect(!WebToken.matches("", key))
        #expect(!WebToken.matches(String(key.reversed()), key))
    }

    @Test func standardPathsFollowTheXDGVariables() {
        let environment = ["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "relative/ignored"]
        let standard = WebPaths.standard { environment[$0] }
        #expect(standard.settingsFile == "/cfg/todod/web.conf")
        #expect(standard.tokenFile == "/home/ann/.local/state/todod-web/token")
    }
}
