import Foundation

/// Finds the built `todod` and `todoctl`: `$TODOD_BIN_DIR` if set, else the
/// directory of this test bundle, which is where SwiftPM puts the products.
enum Binaries {
    static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["TODOD_BIN_DIR"] {
            return URL(fileURLWithPath: override)
        }
        var candidate = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        // Swift Testing may run from inside `todoPackageTests.xctest/...`; walk up to the build directory.
        while candidate.path != "/" {
            if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("todod").path) {
                return candidate
            }
            candidate.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug")
    }()

    static var todod: URL { directory.appendingPathComponent("todod") }
    static var todoctl: URL { directory.appendingPathComponent("todoctl") }
    static var todoSync: URL { directory.appendingPathComponent("todod-sync") }
}
