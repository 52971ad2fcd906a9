import BenchmarkSupport
import Foundation

/// The size of todod and todoctl as the Debian package installs them: the
/// release binaries the benchmark times (`TodoBinaries`), stripped (`strip`, binutils),
/// as `scripts/package` strips them.
enum InstalledSizes {
    static func measure(in scratch: URL) throws -> [(name: String, bytes: Int)] {
        try ["todod", "todoctl"].map { name in
            let copy = scratch.appendingPathComponent("\(name).stripped")
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: TodoBinaries.executable(name), to: copy)
            let strip = Process()
            strip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            strip.arguments = ["strip", copy.path]
            try strip.run()
            strip.waitUntilExit()
            guard strip.terminationStatus == 0 else { throw BenchmarkError.failed("strip \(name) exited \(strip.terminationStatus)") }
            let bytes = try FileManager.default.attributesOfItem(atPath: copy.path)[.size] as? Int ?? 0
            return (name, bytes)
        }
    }
}
