import Foundation
import TestSupport

/// The system user the server's programs (initdb, pg_ctl and so the server) run as.
///
/// PostgreSQL refuses to run as root. Tests run as root in CI, so there they
/// run as `postgres`, the system user Debian's postgresql package creates,
/// through setpriv: it only changes the user and groups and execs, where
/// runuser would also open a PAM session (with its own limits and keyring)
/// around a program that starts a long-lived server. As any other user they
/// run as that user.
///
/// Clients (psql, todod) run as the test's own user whatever this is: the
/// superuser is trusted on the socket (not peer-authenticated), and the role
/// logs in with its password.
struct ServerAccount: Sendable {
    /// The database superuser initdb creates: named after the system user, as is usual.
    let superuser: String
    /// The owner the cluster's files are handed to, when the server runs as another user.
    private let owner: (uid: uid_t, gid: gid_t)?
    /// What goes in front of a command to run it as that user.
    private let commandPrefix: [String]

    static func forThisProcess() throws -> ServerAccount {
        if geteuid() != 0 {
            return ServerAccount(superuser: try userName(of: geteuid()), owner: nil, commandPrefix: [])
        }
        guard let entry = getpwnam("postgres") else {
            throw PostgresClusterError(
                "PostgreSQL refuses to run as root, and there is no 'postgres' system user to run it as"
                    + " (Debian's postgresql package creates it); install it, or run the tests as another user")
        }
        let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let setpriv else {
            throw PostgresClusterError("running as root, and setpriv (util-linux) is missing to run PostgreSQL as 'postgres'")
        }
        return ServerAccount(
            superuser: "postgres", owner: (entry.pointee.pw_uid, entry.pointee.pw_gid),
            commandPrefix: [setpriv, "--reuid=postgres", "--regid=postgres", "--init-groups", "--"])
    }

    /// Runs `executable` as this user, in `directory` (which this user must be able to enter).
    func run(_ executable: String, _ arguments: [String], in directory: String) throws -> ProgramOutput {
        let command = commandPrefix + [executable] + arguments
        return try ProgramRun.run(
            command[0], Array(command.dropFirst()), environment: ProgramEnvironment.forPostgres, directory: directory)
    }

    /// Makes `path` this user's, so that the server can write there.
    func hand(_ path: String) throws {
        guard let owner else { return }
        guard chown(path, owner.uid, owner.gid) == 0 else {
            throw PostgresClusterError("cannot hand \(path) to the postgres user: \(String(cString: strerror(errno)))")
        }
    }

    private static func userName(of uid: uid_t) throws -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else {
            throw PostgresClusterError("user id \(uid) has no name in the password database; initdb needs one for the superuser")
        }
        return String(cString: name)
    }
}
