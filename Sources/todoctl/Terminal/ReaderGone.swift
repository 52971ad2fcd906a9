import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// What todoctl does when nobody reads its output any more: it ends, as
/// `cat` does, instead of writing into the void.
///
/// SIGPIPE would end it at the first write to a pipe whose reader left,
/// but SwiftNIO ignores SIGPIPE (its sockets must not kill the process), so
/// a write gets EPIPE instead and must end todoctl itself. A watcher writes
/// only when the list changes, so it also watches standard output: a pipe
/// whose reader is gone (`todoctl watch | head -2`, a tmux status line
/// after `tmux kill-server`) or a terminal that hung up ends it at once.
enum ReaderGone {
    /// Ends todoctl as SIGPIPE would (status 141 in the shell).
    static func end() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        _exit(128 + SIGPIPE)  // not reached: SIGPIPE ends the process first
    }

    /// Watches standard output on a thread of its own and ends todoctl
    /// once its reader is gone: a pipe with no reader reports POLLERR, a
    /// terminal that hung up POLLHUP. A file or /dev/null reports
    /// neither, and the thread waits for good. `beforeEnding` restores what
    /// must be restored (a terminal's mode).
    static func watchStandardOutput(beforeEnding: @escaping @Sendable () -> Void = {}) {
        DispatchQueue.global().async {
            var output = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while true {
                let ready = poll(&output, 1, -1)
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0 else { return }
                if output.revents & Int16(POLLNVAL) != 0 { return }
                if output.revents & Int16(POLLERR | POLLHUP) != 0 {
                    beforeEnding()
                    end()
                }
            }
        }
    }
}
