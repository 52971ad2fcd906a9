import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// The terminal in the mode a full-screen view needs, and back.
///
/// Entering switches to the alternate screen, hides the cursor, and turns
/// off line editing, echo and the signal keys (Ctrl-C arrives as a key, so
/// quitting is one clean path). Leaving undoes all of it exactly: the
/// settings saved on entry are put back, whether the view ends by a key, a
/// signal or an error, and the shell finds its screen as it was.
final class RawTerminal: Sendable {
    private let saved: SavedSettings
    /// Kept for as long as the terminal is: a released source stops.
    private let signalSources: Mutex<[any DispatchSourceSignal]>

    private init(saved: termios, onResize: @escaping @Sendable () -> Void) {
        let settings = SavedSettings(saved)
        self.saved = settings
        signalSources = Mutex(Self.handleSignals(restoring: settings, onResize: onResize))
    }

    /// Enters raw mode; returns nil when stdin or stdout is not a terminal, or
    /// the terminal cannot draw a full screen, and the caller prints lines.
    static func enter(onResize: @escaping @Sendable () -> Void) -> RawTerminal? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1,
            canDrawFullScreen(term: ProcessInfo.processInfo.environment["TERM"])
        else { return nil }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return nil }
        StandardStreams.write("\u{1B}[?1049h\u{1B}[?25l")  // alternate screen, hide cursor
        return RawTerminal(saved: saved, onResize: onResize)
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
        saved.restore()
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
    private static func handleSignals(
        restoring settings: SavedSettings, onResize: @escaping @Sendable () -> Void
    ) -> [any DispatchSourceSignal] {
        [(SIGWINCH, Int32(0)), (SIGTERM, 143), (SIGHUP, 129), (SIGINT, 130)].map { number, exitCode in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if number == SIGWINCH {
                    onResize()
                } else {
                    settings.restore()
                    exit(exitCode)
                }
            }
            source.resume()
            return source
        }
    }

    /// The settings saved on entry, put back once: a signal and the view's
    /// end may both leave, on different threads.
    private final class SavedSettings: Sendable {
        private let saved: Mutex<termios?>

        init(_ saved: termios) {
            self.saved = Mutex(saved)
        }

        func restore() {
            saved.withLock { saved in
                guard var settings = saved else { return }
                saved = nil
                StandardStreams.write("\u{1B}[?25h\u{1B}[?1049l")  // show cursor, main screen
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
            }
        }
    }
}
