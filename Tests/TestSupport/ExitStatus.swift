/// A child's end as a shell reports it: the exit code, or 128 + the signal
/// that ended it. The one reading of waitpid's status for every test helper
/// that reaps a child.
public enum ExitStatus {
    /// The code for `waitStatus`, as waitpid filled it in.
    public static func code(fromWaitStatus waitStatus: Int32) -> Int32 {
        let signalNumber = waitStatus & 0x7F
        return signalNumber == 0 ? (waitStatus >> 8) & 0xFF : 128 + signalNumber
    }
}
