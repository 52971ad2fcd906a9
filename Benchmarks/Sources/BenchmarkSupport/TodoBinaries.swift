import Foundation

/// Where the todod and todoctl a benchmark times are: `$TODOD_BIN_DIR`, the
/// name the tests use too. The benchmarks are a package of their own, so these
/// binaries are not built next to them: scripts/bench builds them in todod's
/// own release build, the one that gets installed, and sets TODOD_BIN_DIR to it.
/// Without it, the benchmark's own folder, for binaries copied beside it.
public enum TodoBinaries {
    public static var directory: URL {
        if let directory = ProcessInfo.processInfo.environment["TODOD_BIN_DIR"], !directory.isEmpty {
            return URL(fileURLWithPath: directory)
        }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The executable `name` (todod, todoctl) in `directory`, or an error that
    /// says how to build it and point the benchmark at it.
    public static func executable(_ name: String) throws -> URL {
        let executable = directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw BenchmarkError.failed(
                "no \(name) at \(executable.path); run the benchmark through scripts/bench, or build it "
                    + "(swift build -c release --product \(name)) and set TODOD_BIN_DIR to its folder")
        }
        return executable
    }
}
