import Foundation
import Glibc

/// What /proc says about another process: the benchmarks measure servers they
/// started as children, so `getrusage` (which sees only this process, or
/// children once they have exited) cannot be used while the server runs.
public enum ProcessFigures {
    /// User plus system CPU time of every thread of `pid` so far, in seconds
    /// (`utime` + `stime` of `/proc/PID/stat`; the kernel counts them in clock
    /// ticks, 10 ms each here, so measure over seconds of work).
    public static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try contents("/proc/\(pid)/stat")
        // The command name (field 2) is in parentheses and may hold spaces:
        // count fields from after its closing parenthesis, where field 3 starts.
        guard let close = stat.lastIndex(of: ")") else { throw BenchmarkError.failed("unreadable /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchmarkError.failed("unreadable /proc/\(pid)/stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The resident memory of `pid` in bytes (`VmRSS` of `/proc/PID/status`).
    public static func residentBytes(of pid: Int32) throws -> Double {
        let status = try contents("/proc/\(pid)/status")
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kibibytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { throw BenchmarkError.failed("no VmRSS in /proc/\(pid)/status") }
        return kibibytes * 1024
    }

    private static func contents(_ path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchmarkError.failed("cannot read \(path): has the process exited?")
        }
        return text
    }

    /// Raises this process's soft limit on open files to at least `needed`
    /// (up to the hard limit); servers started afterwards inherit it. Throws
    /// when the hard limit is lower.
    public static func allowOpenFiles(_ needed: Int) throws {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { throw BenchmarkError.system("getrlimit", errno) }
        guard limit.rlim_cur < rlim_t(needed) else { return }
        guard limit.rlim_max >= rlim_t(needed) else {
            throw BenchmarkError.failed("the benchmark needs \(needed) open files, the hard limit is \(limit.rlim_max) (ulimit -Hn)")
        }
        limit.rlim_cur = rlim_t(needed)
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { throw BenchmarkError.system("setrlimit", errno) }
    }

    /// The 1-minute load average, to print next to figures from a shared machine.
    public static var loadAverage: String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
