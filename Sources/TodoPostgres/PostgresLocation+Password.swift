/// The password for a location, from the pgpass file libpq would use.
/// Kept apart from the location so that it is read when connecting, not
/// when parsing: a password changed in the file is used at the next
/// connection, and none sits in a value that is logged.
extension PostgresLocation {
    /// The names a pgpass line's host field may match for this location.
    /// Over TCP, the host as given. On a socket, its directory, and
    /// `localhost` too when it is the default socket directory, as libpq
    /// treats its default socket as `localhost`. Another directory (such
    /// as one in /tmp, where anyone can make a socket) does not match
    /// `localhost`: a password for the local server is not sent to
    /// another server.
    public var passwordFileHostNames: [String] {
        switch host {
        case .tcp(let name, _):
            return [name]
        case .unixSocket(let directory, _):
            let isDefault = directory == Self.defaultSocketDirectory || directory == "/var/run/postgresql"
            return isDefault ? [directory, "localhost"] : [directory]
        }
    }

    /// The password for this location from its pgpass file (``passwordFile``,
    /// else PGPASSFILE, else `$HOME/.pgpass`), and a warning for the log
    /// when a file was named but not used.
    ///
    /// No file, or no matching line, gives no password and no warning
    /// unless the file was named by `passfile=` or PGPASSFILE (then a
    /// missing file is worth a warning: most likely a typo). A file with
    /// group or world access gives no password and libpq's warning.
    ///
    /// - Parameter environment: the process's environment, for PGPASSFILE and HOME.
    /// - Throws: ``PasswordFileError`` when the file is allowed but unreadable.
    public func password(environment: [String: String]) throws(PasswordFileError) -> (password: String?, warning: String?) {
        guard let path = PasswordFile.locate(explicit: passwordFile, environment: environment) else { return (nil, nil) }
        switch try PasswordFile.load(path: path) {
        case .absent:
            let named = passwordFile != nil || !(environment["PGPASSFILE"] ?? "").isEmpty
            return (nil, named ? "password file \"\(path)\" does not exist" : nil)
        case .ignored(let reason):
            return (nil, reason)
        case .loaded(let file):
            let password = file.password(hosts: passwordFileHostNames, port: host.port, database: database, user: user)
            return (password, nil)
        }
    }
}
