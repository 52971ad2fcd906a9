import ArgumentParser
import UserFiles
import WebAccess
#if canImport(Glibc)
import Glibc
#endif

/// `todoctl web`: opens the list's page in the browser, with its key.
///
/// The address carries the key, so it is never put on a command line where
/// other users could read it (`/proc/*/cmdline`): the browser is sent to a
/// small page of this user's own, only they can read, that leads on to the
/// address, as Jupyter does. todod-web then moves the key into a cookie.
struct WebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Opens the list in your browser (todod-web), or prints its address with --print-url.",
        discussion: """
            The address holds the key to your list: share it with no one. \
            todod-web.socket serves the page (systemctl --user enable --now todod-web.socket; \
            scripts/install does it). The port is web.conf's (port = N), else 8636.
            """)

    @Flag(help: "Print the address (with its key) instead of opening a browser.")
    var printURL = false

    @Option(help: ArgumentHelp("The port todod-web listens on (default: web.conf's, else \(WebSettings.defaultPort)).", valueName: "port"))
    var port: Int?

    func validate() throws {
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be from 1 to 65535") }
    }

    func run() throws {
        let paths = WebPaths.standard()
        var settings: WebSettings
        let token: String
        do {
            settings = try WebSettings.load(from: paths.settingsFile)
            token = try WebToken.loadOrCreate(paths)
        } catch {
            throw ValidationError(error.description)
        }
        if let port { settings.port = port }
        let url = settings.pageURL(token: token)
        let listening = Self.isListening(port: settings.port)
        if printURL {
            print(url)
            if !listening { warn("todod-web is not listening on 127.0.0.1:\(settings.port) yet. " + Self.howToStart) }
            return
        }
        guard listening else {
            warn("todod-web is not listening on 127.0.0.1:\(settings.port). " + Self.howToStart)
            throw ExitCode(69)  // EX_UNAVAILABLE
        }
        let leadIn = try Self.writeLeadIn(to: url, paths: paths)
        var pid = pid_t()
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("xdg-open"), strdup(leadIn), nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawnp(&pid, "xdg-open", nil, nil, argv, environ) == 0 else {
            warn("cannot run xdg-open; open this address in your browser (it holds your key):")
            print(url)
            throw ExitCode(69)  // EX_UNAVAILABLE
        }
        switch Self.outcome(of: pid, within: Self.browserGrace) {
        case .failed(let status):
            // No browser (no DISPLAY, none installed): said here, with
            // the address, rather than "Opening…" and xdg-open's errors
            // in the middle of whatever the terminal runs next.
            warn("no browser could be opened (xdg-open exited \(status)); open this address in your browser (it holds your key):")
            print(url)
            throw ExitCode(69)  // EX_UNAVAILABLE
        case .succeeded, .stillRunning:
            print("Opening the list in your browser: http://127.0.0.1:\(settings.port)/")
        }
    }

    /// How long xdg-open is waited for. It returns at once on a desktop
    /// (it hands the page to the running browser) and fails at once without
    /// one; a browser xdg-open started itself and waits on keeps it running,
    /// and is then taken as opened.
    static let browserGrace: Duration = .seconds(10)

    enum SpawnOutcome: Equatable { case succeeded, failed(Int32), stillRunning }

    /// Waits for `pid` up to `limit`: its exit status, or that it still runs.
    static func outcome(of pid: pid_t, within limit: Duration) -> SpawnOutcome {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var status: Int32 = 0
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid {
                // WIFEXITED and WEXITSTATUS, which Swift does not import.
                let exited = status & 0x7f == 0
                let code = (status >> 8) & 0xff
                return exited && code == 0 ? .succeeded : .failed(exited ? code : 128 + (status & 0x7f))
            }
            if waited < 0 && errno != EINTR { return .stillRunning }
            if clock.now >= deadline { return .stillRunning }
            usleep(20_000)
        }
    }

    static let howToStart = "Start it with: systemctl --user enable --now todod-web.socket"

    /// A page only this user can read that sends the browser on to `url`.
    static func writeLeadIn(to url: String, paths: WebPaths) throws -> String {
        let directory = BaseDirectories().givenRuntimeDirectory ?? paths.stateDirectory
        let path = directory + "/todod-web-open.html"
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let html = """
            <!DOCTYPE html>
            <meta charset="utf-8">
            <meta http-equiv="refresh" content="0;url=\(url)">
            <title>todod</title>
            <p>Opening <a href="\(url)">your list</a>…</p>

            """
        let bytes = Array(html.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else {
            throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return path
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    static func isListening(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private func warn(_ message: String) {
        let line = Array("todoctl web: \(message)\n".utf8)
        _ = write(STDERR_FILENO, line, line.count)
    }
}
