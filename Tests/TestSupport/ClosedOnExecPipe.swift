import Foundation

/// A pipe whose ends are closed on exec from the moment it exists (pipe2
/// with O_CLOEXEC, not pipe then fcntl): tests run in parallel in one
/// process, and another test may be spawning a program at this very moment.
/// A child gets an end only through `ChildSpawn`'s dup2, which clears the
/// flag on its copy. The caller closes both ends.
public struct ClosedOnExecPipe: Sendable {
    public let readEnd: Int32
    public let writeEnd: Int32

    public init() throws(SpawnFailure) {
        var ends: [Int32] = [-1, -1]
        guard let pipe2 = Self.pipe2, pipe2(&ends, O_CLOEXEC) == 0 else {
            throw SpawnFailure("pipe failed: \(String(cString: strerror(errno)))")
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    // glibc's pipe2, which Swift's Glibc module does not show.
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private static let pipe2: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
}
