import Foundation

/// What one `todoctl` run did.
struct CommandResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs the real `todoctl` against a socket and waits for it to exit.
func todoctl(_ arguments: String..., socket: String, environment: [String: String] = [:]) async throws -> CommandResult {
    try await todoctl(arguments: arguments, socket: socket, environment: environment)
}

/// Runs the real `todoctl` with arguments built at run time (many words,
/// say), reading `input` on stdin if given.
func todoctl(arguments: [String], socket: String, environment: [String: String] = [:], input: String? = nil) async throws
    -> CommandResult
{
    let stdout = OutputCollector()
    let stderr = OutputCollector()
    let child = try ChildProcess(
        Binaries.todoctl,
        ["--socket", socket] + arguments,
        environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
        input: input,
        stdout: stdout,
        stderr: stderr
    )
    guard let status = await child.waitForExit(timeout: .seconds(30)) else {
        child.signal(SIGKILL)
        throw TestFailure(
            "todoctl \(arguments.joined(separator: " ").prefix(200)) did not finish within 30 s; stdout: \(stdout.text) stderr: \(stderr.text)")
    }
    await stdout.waitForEndOfFile()
    await stderr.waitForEndOfFile()
    return CommandResult(status: status, stdout: stdout.text, stderr: stderr.text)
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
