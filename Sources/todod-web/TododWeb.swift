import ArgumentParser
import BuildInfo
import Glibc
import Logging
import NIOPosix
import ServiceLifecycle
import SystemdSupport
import TodoProtocol
import TodoWeb
import UnixSignals
import WebAccess

/// `todod-web`: todod's list as a page in a browser. Each tab speaks todod's
/// own protocol over a WebSocket that this relays, line for line, to a
/// connection of its own on todod's socket; todod keeps its sandbox and
/// stays the only owner of the list and its view models.
@main
struct TododWeb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todod-web",
        abstract: "Serves todod's list as a page in a browser, live.",
        discussion: """
            Open the page with `todoctl web`: it carries the key this user's \
            todod-web made on its first start (~/.local/state/todod-web/token). \
            The user service todod-web.socket listens on 127.0.0.1 and ::1 and \
            starts todod-web.service on the first connection; it then serves \
            the sockets systemd passes and ignores --port and --unix-socket. \
            Settings are read from web.conf (port = N, host = NAME); options \
            override them.
            """,
        version: VersionText.full)

    @Option(help: ArgumentHelp("The port on 127.0.0.1 and ::1 (default: web.conf's, else \(WebSettings.defaultPort)).", valueName: "port"))
    var port: Int?

    @Option(help: ArgumentHelp("Listen on this Unix socket instead of TCP, for a reverse proxy (made 0600).", valueName: "path"))
    var unixSocket: String?

    @Option(help: ArgumentHelp("todod's socket (default: $TODOD_SOCKET, else todod's own).", valueName: "path"))
    var daemonSocket: String?

    @Option(help: ArgumentHelp("The settings file (default: $XDG_CONFIG_HOME/todod/web.conf, used if it exists).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Serve at most this many tabs at once (default: 64).", valueName: "count"))
    var maxTabs: Int = 64

    @Option(help: ArgumentHelp("Serve the page's files from this folder instead of the copy built in (for working on the page).", valueName: "dir"))
    var pageDir: String?

    func validate() throws {
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be from 1 to 65535") }
        guard maxTabs >= 1 else { throw ValidationError("--max-tabs must be at least 1") }
    }

    func run() async throws {
        Self.returnLargeBuffersToTheSystem()
        CompanionLogging.bootstrap(identifier: "todod-web", fieldPrefix: "TODOD_WEB_")
        let logger = Logger(label: "todod-web")
        let notifier = ServiceNotifier()
        var paths = WebPaths.standard()
        if let config { paths.settingsFile = config }
        let settings: WebSettings
        let token: String
        let passed: [Int32]
        do {
            settings = try WebSettings.load(from: paths.settingsFile)
            token = try WebToken.loadOrCreate(paths)
            passed = try SocketActivation.passedStreamSockets()
        } catch {
            logger.critical("todod-web will not start: \(error)")
            notifier.status("todod-web will not start: \(error)")
            throw ExitCode(78)  // EX_CONFIG: systemd does not restart it in a loop
        }

        let addresses: [ListenAddress]
        let servedPort: Int?
        if !passed.isEmpty {
            addresses = passed.map { .passed(descriptor: $0) }
            let ports = Set(passed.compactMap(Self.boundPort))
            servedPort = ports.count == 1 ? ports.first : nil
            if ports.count == 1, let configured = port ?? (settings.port == WebSettings.defaultPort ? nil : settings.port),
                configured != servedPort
            {
                logger.warning("todod-web.socket listens on \(servedPort!), not on the port \(configured) asked for: change ListenStream= with `systemctl --user edit todod-web.socket`")
            }
        } else if let unixSocket {
            addresses = [.unix(path: unixSocket)]
            servedPort = nil
        } else {
            let chosen = port ?? settings.port
            addresses = [.tcp(host: "127.0.0.1", port: chosen), .tcp(host: "::1", port: chosen)]
            servedPort = chosen
        }

        let daemonSocket = self.daemonSocket ?? SocketLocation.defaultPath()
        let relay = TabRelay(daemonSocket: daemonSocket, maximumTabs: maxTabs) { open in
            notifier.status(Self.status(tabs: open, daemonSocket: daemonSocket))
        }
        let router = PageRouter(
            gate: AccessGate(token: token, port: servedPort, hostNames: settings.hostNames),
            page: pageDir.map(PageFiles.directory) ?? .embedded,
            relay: relay)
        let server = WebServer(
            addresses: addresses, childChannel: router.childChannel(logger: logger),
            maximumConnections: 4 * maxTabs + 64, logger: logger
        ) { listening in
            // The address is said, the key never is.
            logger.notice("serving \(listening.joined(separator: " and ")) for todod at \(daemonSocket)")
            notifier.ready(status: Self.status(tabs: 0, daemonSocket: daemonSocket))
        }
        let watchdog = Task { await Self.feedWatchdog(notifier) }
        defer { watchdog.cancel() }
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: server, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        do {
            try await group.run()
        } catch {
            logger.critical("todod-web stopped: \(error)")
            throw ExitCode(1)
        }
        notifier.stopping(status: "stopped")
    }

    /// WATCHDOG=1 at half the unit's WatchdogSec=, each time after the
    /// event loops that serve every tab have run a task: a wedged loop
    /// stops the pings, and systemd restarts todod-web.
    static func feedWatchdog(_ notifier: ServiceNotifier) async {
        guard let timeout = notifier.watchdogTimeout else { return }
        while !Task.isCancelled {
            let loops = MultiThreadedEventLoopGroup.singleton.makeIterator()
            var alive = true
            for loop in loops {
                do { try await loop.submit {}.get() } catch { alive = false }
            }
            if alive { notifier.watchdogPing() }
            try? await Task.sleep(for: timeout / 2)
        }
    }

    /// A tab's first state is one line of megabytes (5,000 rows are about
    /// 2.5 MB), read from todod and written to the tab, then freed. glibc
    /// raises its threshold for serving such blocks with mmap after the
    /// first is freed, and keeps later ones in its heaps for good; a fixed
    /// threshold gives each back to the system when it is freed, so ten
    /// tabs opening do not leave ten snapshots' worth of memory behind.
    static func returnLargeBuffersToTheSystem() {
        // <malloc.h>'s M_TRIM_THRESHOLD, M_MMAP_THRESHOLD and M_ARENA_MAX
        // (Glibc's module leaves malloc.h out).
        _ = mallopt(-1, 512 * 1024)
        _ = mallopt(-3, 256 * 1024)
        // One heap per event loop thread is enough; glibc makes up to 8 per core.
        _ = mallopt(-8, 2)
    }

    static func status(tabs: Int, daemonSocket: String) -> String {
        "\(tabs) tab\(tabs == 1 ? "" : "s") open; relaying to todod at \(daemonSocket)"
    }

    /// The TCP port a passed socket is bound to, or nil for a Unix socket.
    static func boundPort(_ descriptor: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        guard found else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        default:
            return nil
        }
    }

}

/// glibc's `int mallopt(int param, int value)`.
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
