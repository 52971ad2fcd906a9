import Dispatch
import FoundationEssentials
import Glibc
import NIOConcurrencyHelpers

/// The terminal in the mode a full-screen view needs, and back.
///
/// Entering switches to the alternate screen, hides the cursor, and turns
/// off line editing, echo and the signal keys (Ctrl-C arrives as a key, so
/// quitting is one clean path). Leaving undoes all of it exactly: the
/// settings saved on entry are put back, whether the view ends by a key, a
/// signal or an error, and the shell finds its screen as it was.
final class RawTerminal: @unchecked Sendable {
    private var saved = termios()
    private let lock = NIOLock()
    private var active = false
    private var signalSources: [any DispatchSourceSignal] = []

    /// Enters raw mode; returns nil when stdin or stdout is not a terminal, or
    /// the terminal cannot draw a full screen, and the caller prints lines.
    static func enter(onResize: @escaping @Sendable () -> Void) -> RawTerminal? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1,
            canDrawFullScreen(term: ProcessInfo.processInfo.environment["TERM"])
        else { return nil }
        let terminal = RawTerminal()
        guard tcgetattr(STDIN_FILENO, &terminal.saved) == 0 else { return nil }
        var raw = terminal.saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return nil }
        terminal.active = true
        terminal.write("\u{1B}[?1049h\u{1B}[?25l")  // alternate screen, hide cursor
        terminal.handleSignals(onResize: onResize)
        return terminal
    }

    /// Whether a terminal of type `term` moves the cursor and switches
    /// screens. `TERM=dumb` says it cannot (Emacs' shell buffer, some CI and
    /// IDE consoles, a serial console): there the escape sequences would
    /// arrive as garbage text, and no `TERM` at all promises nothing more.
    static func canDrawFullScreen(term: String?) -> Bool {
        guard let term, !term.isEmpty else { return false }
        return term != "dumb"
    }

    /// Puts the terminal back as it was. Safe to call more than once.
    func leave() {
        lock.lock()
        defer { lock.unlock() }
        guard active else { return }
        active = false
        write("\u{1B}[?25h\u{1B}[?1049l")  // show cursor, main screen
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }

    /// Columns and rows (80×24 when the terminal does not say).
    var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    func write(_ text: String) {
        StandardStreams.write(text)
    }

    /// SIGWINCH redraws; SIGTERM, SIGHUP and SIGINT (sent by another
    /// process: the keyboard's Ctrl-C is a key here) restore and exit.
    private func handleSignals(onResize: @escaping @Sendable () -> Void) {
        for (number, exitCode) in [(SIGWINCH, Int32(0)), (SIGTERM, 143), (SIGHUP, 129), (SIGINT, 130)] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                if number == SIGWINCH {
                    onResize()
                } else {
                    self?.leave()
                    exit(exitCode)
                }
            }
            source.resume()
            signalSources.append(source)
        }
    }
}
