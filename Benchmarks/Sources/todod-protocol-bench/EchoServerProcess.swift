import BenchmarkSupport
import Foundation

extension ServerProcess {
    /// The echo server that sets the floor: this executable in `--echo-server` mode.
    static func echo(in parent: URL) throws -> ServerProcess {
        try ServerProcess(in: parent, executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()) {
            _, socket in ["--echo-server", socket]
        }
    }
}
