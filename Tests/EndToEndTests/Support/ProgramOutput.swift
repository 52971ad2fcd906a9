import Foundation

/// Runs a program to the end and returns what it printed, trimmed; throws if
/// it fails or takes more than 30 s.
func output(of program: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> String {
    let stdout = OutputCollector()
    let stderr = OutputCollector()
    let child = try ChildProcess(
        program, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
        stdout: stdout, stderr: stderr)
    guard let status = await child.waitForExit(timeout: .seconds(30)) else {
        child.signal(SIGKILL)
        throw TestFailure("\(program.lastPathComponent) \(arguments) did not finish within 30 s")
    }
    await stdout.waitForEndOfFile()
    await stderr.waitForEndOfFile()
    guard status == 0 else { throw TestFailure("\(program.lastPathComponent) exited \(status): \(stderr.text)") }
    return stdout.text.trimmingCharacters(in: .whitespacesAndNewlines)
}
