import Foundation

/// How one kind of server is configured and launched in its folder.
struct ServerSetup {
    /// The Python module run as `python3 -m`.
    let module: String
    /// The collection of to-dos made before the server is handed out, a path.
    let collectionPath: String
    /// Whether the server checks the user name and password.
    let authenticates: Bool
    /// The command-line arguments for listening on `port`; writes any
    /// configuration file they name first.
    let arguments: (_ port: Int) throws -> [String]

    /// Radicale 3: htpasswd authentication with a plain-text password file
    /// (no bcrypt needed), rights `owner_only` (so `me` owns `/me/`), storage
    /// in the folder, no web interface, no delay after a wrong password (the
    /// default second would only slow the tests), TLS when `certificates`.
    static func radicale(
        directory: String, user: String, password: String, certificates: TestCertificates?
    ) throws -> ServerSetup {
        let users = "\(directory)/users"
        try "\(user):\(password)\n".write(toFile: users, atomically: false, encoding: .utf8)
        let configuration = "\(directory)/radicale.conf"
        return ServerSetup(module: "radicale", collectionPath: "/\(user)/tasks/", authenticates: true) { port in
            let tls = certificates.map {
                "ssl = True\ncertificate = \($0.certificateFile)\nkey = \($0.keyFile)\n"
            } ?? "ssl = False\n"
            try """
                [server]
                hosts = 127.0.0.1:\(port)
                \(tls)
                [auth]
                type = htpasswd
                htpasswd_filename = \(users)
                htpasswd_encryption = plain
                delay = 0

                [rights]
                type = owner_only

                [storage]
                filesystem_folder = \(directory)/collections

                [web]
                type = none

                [logging]
                level = info
                mask_passwords = True

                """.write(toFile: configuration, atomically: false, encoding: .utf8)
            return ["--config", configuration]
        }
    }

    /// Xandikos 0.2.8: it has no authentication of its own (it expects a
    /// reverse proxy to do it), so it runs without, and ignores the
    /// credentials the client sends. `--defaults` makes the principal
    /// `/user/` with `/user/calendars/calendar/`; the tests' collection is a
    /// second calendar, `/user/calendars/tasks/`. No TLS of its own either.
    static func xandikos(directory: String) -> ServerSetup {
        ServerSetup(module: "xandikos", collectionPath: "/user/calendars/tasks/", authenticates: false) { port in
            ["--directory", "\(directory)/data", "--defaults", "--listen-address", "127.0.0.1", "--port", "\(port)"]
        }
    }
}
