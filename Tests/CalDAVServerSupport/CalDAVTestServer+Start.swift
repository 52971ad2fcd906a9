import Foundation
import TestSupport

extension CalDAVTestServer {
    /// Picks a port and starts the server on it, again on another port when
    /// someone else took the one picked before the server bound it.
    static func startOnFreePort(
        setup: ServerSetup, folder: TemporaryDirectory, logFile: String
    ) throws -> (ServerProcess, Int) {
        let attempts = 5
        for attempt in 1...attempts {
            let port = try FreePort.pick()
            do {
                return (try start(setup: setup, folder: folder, logFile: logFile, port: port), port)
            } catch is PortTaken where attempt < attempts {
                continue
            }
        }
        throw CalDAVTestServerError("no free port found in \(attempts) attempts")
    }

    /// The server's log said its port was in use.
    struct PortTaken: Error, CustomStringConvertible {
        var description: String { "the server's port was taken by another process before it could bind it" }
    }

    /// Starts the server on `port` and returns once it accepts connections.
    /// Throws `PortTaken` if it exited because the port was in use, and an
    /// error with the end of its log if it exited for another reason or did
    /// not listen within `startTimeout`.
    static func start(setup: ServerSetup, folder: TemporaryDirectory, logFile: String, port: Int) throws -> ServerProcess {
        let logStart = logSize(logFile)
        let process = try ServerProcess(
            module: setup.module, arguments: try setup.arguments(port),
            environment: Python.environment(home: folder.path), logFile: logFile, directory: folder.path)
        let deadline = ContinuousClock.now + startTimeout
        while true {
            // The order matters: a server that exited (port taken) must not
            // pass for ready because another process listens there.
            guard process.isRunning else {
                let log = self.log(of: logFile, since: logStart)
                if log.lowercased().contains("address already in use") { throw PortTaken() }
                throw CalDAVTestServerError(
                    "\(setup.module) exited on start:\n--- \(logFile) ---\n\(log.suffix(4000))")
            }
            if FreePort.isAccepting(port) { return process }
            guard ContinuousClock.now < deadline else {
                process.kill()
                throw CalDAVTestServerError(
                    "\(setup.module) did not listen on 127.0.0.1:\(port) within \(startTimeout)\n\(logTail(of: logFile))")
            }
            // Polling, not waiting for an event: the port is the only sign.
            usleep(20_000)
        }
    }

    static func logSize(_ logFile: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: logFile))?[.size] as? Int) ?? 0
    }

    static func log(of logFile: String, since offset: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: logFile) else { return "" }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(offset))
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }

    static func logTail(of logFile: String, lines: Int = 30) -> String {
        let tail = log(of: logFile, since: 0).split(separator: "\n", omittingEmptySubsequences: false).suffix(lines)
        return "--- last lines of \(logFile) ---\n" + tail.joined(separator: "\n")
    }
}
