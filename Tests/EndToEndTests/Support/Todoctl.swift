import Foundation

/// What one `todoctl` run did.
struct CommandResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs the real `todoctl` against a socket and waits for it to exit.
func todoctl(_ arguments: String..., socket: String, environment: [String: String] = [:]) async throws -> CommandResult {
    let process = Process()
    process.executableURL = Binaries.todoctl
    process.arguments = ["--socket", socket] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let stdout = OutputCollector()
    let stderr = OutputCollector()
    process.standardOutput = stdout.writeHandle
    process.standardError = stderr.writeHandle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    stdout.processStarted()
    stderr.processStarted()
    let exited = await waitForExit(process, timeout: .seconds(30))
    guard exited else {
        let pid = process.processIdentifier
        let state = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("State:") } ?? "no /proc entry"
        process.terminate()
        throw TestFailure(
            "todoctl \(arguments.joined(separator: " ")) did not finish within 30 s (pid \(pid), \(state));"
                + " stdout: \(stdout.text) stderr: \(stderr.text)")
    }
    // The reader threads may still be copying what the process wrote just before it exited.
    await stdout.waitForEndOfFile()
    await stderr.waitForEndOfFile()
    return CommandResult(status: process.terminationStatus, stdout: stdout.text, stderr: stderr.text)
}

func waitForExit(_ process: Process, timeout: Duration) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while process.isRunning && ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(10))
    }
    return !process.isRunning
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
