import UserFiles

/// todod-web's settings: `web.conf`, read by todod-web and `todoctl web`.
///
/// ```
/// # the port on 127.0.0.1 and ::1 (default 8636, T-O-D-O on a phone's keys)
/// port = 8636
/// # a name the page may also be reached by, through a reverse proxy (repeatable)
/// host = todo.example.org
/// ```
///
/// Options on the command line override the file.
public struct WebSettings: Sendable, Equatable {
    /// 8636 spells TODO on a telephone keypad.
    public static let defaultPort = 8636

    public var port: Int
    /// Names besides the loopback ones that the `Host` header may carry.
    public var hostNames: [String]

    public init(port: Int = WebSettings.defaultPort, hostNames: [String] = []) {
        self.port = port
        self.hostNames = hostNames
    }

    /// Reads the file's text; `file` names it in errors, with the line.
    public init(parsing text: String, file: String) throws(WebAccessError) {
        self.init()
        let lines: [SettingsLine]
        do { lines = try SettingsFile.lines(of: text, path: file) } catch { throw WebAccessError(error.description) }
        for line in lines {
            let value = line.value
            switch line.key {
            case "port":
                guard let port = Int(value), (1...65535).contains(port) else {
                    throw WebAccessError(line.problem("port must be a number from 1 to 65535, not “\(value)”"))
                }
                self.port = port
            case "host":
                guard Self.isHostName(value) else {
                    throw WebAccessError(line.problem("host must be a host name such as todo.example.org, not “\(value)”"))
                }
                hostNames.append(value.lowercased())
            default:
                throw WebAccessError(line.problem("unknown setting '\(line.key)' (port, host)"))
            }
        }
    }

    /// The settings in `file`, or the defaults when there is no such file.
    public static func load(from file: String) throws(WebAccessError) -> WebSettings {
        guard let text = try PrivateFile.readIfPresent(file) else { return WebSettings() }
        return try WebSettings(parsing: text, file: file)
    }

    /// Letters, digits, dots and hyphens: a DNS name, never a port or a path.
    static func isHostName(_ value: String) -> Bool {
        !value.isEmpty && value.count <= 253
            && value.utf8.allSatisfy { byte in
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2E || byte == 0x2D
            }
    }
}

/// What went wrong with todod-web's settings or key, worded for the user.
public struct WebAccessError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension WebSettings {
    /// The page's address with its key, as `todoctl web` opens it: the
    /// server moves the key into a cookie and out of the address bar.
    public func pageURL(token: String) -> String {
        "http://127.0.0.1:\(port)/?token=\(token)"
    }
}
