import Foundation

/// The command line of a benchmark that runs in parts (`todod-protocol-bench`,
/// `todod-shared-bench`): a few flags with a value, then the names of the
/// parts to run, all of them when none is named. One type, so that both
/// read their arguments, refuse a wrong one and fail the same way, and both
/// summaries name a command that runs again exactly what ran.
public struct BenchmarkCommandLine {
    /// The executable's name, which starts every message it writes.
    public let program: String
    /// Every part, in the order they run.
    public let parts: [String]
    /// The flags as the usage line shows them: "[--clients N,N,...]".
    private let flagsUsage: String
    /// What is left to read: the flags taken so far are gone.
    public private(set) var arguments: [String]

    public init(program: String, flagsUsage: String, parts: [String], arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        self.program = program
        self.flagsUsage = flagsUsage
        self.parts = parts
        self.arguments = arguments
    }

    public var usage: String {
        "usage: \(program) \(flagsUsage) [\(parts.joined(separator: "] ["))]\n"
    }

    /// The value after `flag`, taking both out of the arguments; nil when
    /// `flag` is absent or last (the usage check then refuses it).
    public mutating func takeValue(of flag: String) -> String? {
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        let value = arguments[index + 1]
        arguments.removeSubrange(index...(index + 1))
        return value
    }

    /// The parts to run, once every flag is taken: the ones named, or all.
    /// Anything else prints the usage and exits 64 (EX_USAGE).
    public func selectedParts() -> Set<String> {
        guard Set(arguments).isSubset(of: parts) else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(64)
        }
        return arguments.isEmpty ? Set(parts) : Set(arguments)
    }

    /// Refuses a flag's value: `message` and exit 64 (EX_USAGE).
    public func refuse(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(program): \(message)\n".utf8))
        exit(64)
    }

    /// Ends a run that failed: `message` and exit 1.
    public func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(program): \(message)\n".utf8))
        exit(1)
    }

    /// The command that runs again what ran, for the summary: `script`,
    /// the flags given (only those not at their default), then the parts
    /// run, or none when they all ran.
    public func command(_ script: String, flags: [String], ran selected: Set<String>) -> String {
        let named = parts.filter(selected.contains)
        return ([script] + flags + (named.count == parts.count ? [] : named)).joined(separator: " ")
    }

    /// Runs `body` with a scratch directory of its own,
    /// `parent/PROGRAM-PID`, removed afterwards however `body` ends; a
    /// failure ends the process through `fail`.
    public func run(scratchUnder parent: URL, _ body: (URL) throws -> Void) {
        do {
            let scratch = parent.appendingPathComponent("\(program)-\(getpid())")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            try body(scratch)
        } catch {
            fail("\(error)")
        }
    }
}
