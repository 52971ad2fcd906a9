import WebAccess

/// Who may have the page and the list behind it, decided on a request's
/// head alone, before anything is served or relayed.
///
/// Three checks, in order:
/// 1. `Host` must name this machine's loopback address with the port served
///    (or a name `web.conf` lists): a page of some other site whose name was
///    pointed at 127.0.0.1 (DNS rebinding) is refused before its scripts can
///    read anything.
/// 2. The key: `?token=` in the address (then moved into a cookie, and out
///    of the address bar, by a redirect), the `todod-web` cookie, or an
///    `Authorization: Bearer` header for scripts.
/// 3. For a WebSocket, a browser's `Origin` must be this page's own: another
///    site cannot open a tab's connection with the user's cookie.
public struct AccessGate: Sendable {
    public static let cookieName = "todod-web"

    let token: String
    /// The TCP port served, or nil behind a Unix socket (a reverse proxy).
    let port: Int?
    let hostNames: [String]

    public init(token: String, port: Int?, hostNames: [String]) {
        self.token = token
        self.port = port
        self.hostNames = hostNames.map { $0.lowercased() }
    }

    /// What the gate looks at in a request.
    public struct Request: Sendable {
        public var path: String
        public var authority: String?
        public var cookies: [String]
        public var authorization: String?
        public var origin: String?
        public var isWebSocket: Bool

        public init(path: String, authority: String?, cookies: [String] = [], authorization: String? = nil, origin: String? = nil, isWebSocket: Bool = false) {
            self.path = path
            self.authority = authority
            self.cookies = cookies
            self.authorization = authorization
            self.origin = origin
            self.isWebSocket = isWebSocket
        }
    }

    public enum Decision: Equatable, Sendable {
        /// Serve `path` (the address without its query).
        case allow(path: String)
        /// A good key in the address: set the cookie, and go to `location`,
        /// the same address without the key (303 See Other).
        case signIn(location: String, setCookie: String)
        /// 401 (no key or a wrong one), 403 (a foreign Host or Origin).
        case refuse(status: Int, message: String)
    }

    public func decide(_ request: Request) -> Decision {
        if let refusal = checkHost(request.authority) { return refusal }
        let (path, query) = Self.split(request.path)
        var remaining: [Substring] = []
        var offered: Substring?
        for pair in query {
            if pair.hasPrefix("token=") { offered = pair.dropFirst("token=".count) } else { remaining.append(pair) }
        }
        if let offered {
            guard WebToken.matches(offered, token) else {
                return .refuse(status: 401, message: "That key does not open this page: it was made anew, or the address was mistyped. " + Self.howToOpen)
            }
            if !request.isWebSocket {
                let location = Self.ownPath(path) + (remaining.isEmpty ? "" : "?" + remaining.joined(separator: "&"))
                return .signIn(location: location, setCookie: setCookie)
            }
        } else if !hasKey(request) {
            return .refuse(status: 401, message: "This page needs its key. " + Self.howToOpen)
        }
        if request.isWebSocket, let origin = request.origin, !isOwnOrigin(origin, authority: request.authority) {
            return .refuse(status: 403, message: "A WebSocket from \(origin) is refused: only this page (\(request.authority ?? "")) may connect.")
        }
        return .allow(path: path)
    }

    static let howToOpen = "Open it with `todoctl web`, or the address `todoctl web --print-url` prints."

    /// The cookie the key moves into: sent back only to this host by the
    /// browser's own requests (SameSite=Strict), never readable by scripts.
    var setCookie: String {
        "\(Self.cookieName)=\(token); Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict"
    }

    private func hasKey(_ request: Request) -> Bool {
        if let authorization = request.authorization, authorization.hasPrefix("Bearer "),
            WebToken.matches(authorization.dropFirst("Bearer ".count), token)
        {
            return true
        }
        for header in request.cookies {
            for cookie in header.split(separator: ";") {
                let pair = cookie.drop { $0 == " " }
                guard let equals = pair.firstIndex(of: "="), pair[..<equals] == Self.cookieName else { continue }
                if WebToken.matches(pair[pair.index(after: equals)...], token) { return true }
            }
        }
        return false
    }

    private func checkHost(_ authority: String?) -> Decision? {
        guard let authority else { return .refuse(status: 400, message: "The request has no Host header.") }
        guard let (host, port) = Self.hostAndPort(authority) else {
            return .refuse(status: 400, message: "The Host header “\(authority)” cannot be read.")
        }
        let loopback = host == "127.0.0.1" || host == "::1" || host == "localhost"
        if loopback && (self.port == nil || port == self.port) { return nil }
        if hostNames.contains(host) { return nil }
        let address = "http://127.0.0.1:\(self.port.map(String.init) ?? "PORT")/"
        return .refuse(
            status: 403,
            message: "This is todod-web on 127.0.0.1, not \(authority): open \(address) (a name of your own for it goes in web.conf: host = NAME).")
    }

    private func isOwnOrigin(_ origin: String, authority: String?) -> Bool {
        guard let authority else { return false }
        let origin = origin.lowercased()
        let own = authority.lowercased()
        return origin == "http://" + own || origin == "https://" + own
    }

    /// `host:port`, `[::1]:port`, or a host alone; the host lower-cased.
    static func hostAndPort(_ authority: String) -> (String, Int?)? {
        let text = authority.lowercased()
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return (host, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (host, port)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (text, nil)
        case 2:
            guard let port = Int(parts[1]) else { return nil }
            return (String(parts[0]), port)
        default: return nil
        }
    }

    /// `path` if a browser reads it as a path on this host, else `/`.
    ///
    /// The sign-in redirect goes back to the address that was asked for, so
    /// that address must not name another host: `//evil.example/x` is a
    /// scheme-relative address to evil.example, a browser reads `\` as
    /// `/`, and it drops tabs and line breaks before it reads either
    /// (WHATWG URL). Only a path of visible ASCII that starts with exactly
    /// one slash goes back as it is.
    static func ownPath(_ path: String) -> String {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else { return "/" }
        if bytes.count > 1, bytes[1] == UInt8(ascii: "/") || bytes[1] == UInt8(ascii: "\\") { return "/" }
        return path
    }

    /// The path, and the query's `name=value` pairs.
    static func split(_ target: String) -> (String, [Substring]) {
        guard let question = target.firstIndex(of: "?") else { return (target, []) }
        let query = target[target.index(after: question)...]
        return (String(target[..<question]), query.split(separator: "&"))
    }
}
