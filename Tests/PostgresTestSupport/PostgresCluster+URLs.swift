import Foundation

/// The cluster's database URLs, as todod accepts them in `--store`. Neither
/// carries the password: clients find it in `passwordFile`.
extension PostgresCluster {
    /// Over the Unix socket: no host before the path, the socket directory in
    /// `host=` (libpq's way of naming one in a URL), e.g.
    /// `postgres://todod@/items?host=/tmp/todod-test-Ab12Cd/socket&port=41234`.
    public func socketURL(database: String) -> String {
        "postgres://\(encoded(user, keeping: ""))@/\(encoded(database, keeping: ""))"
            + "?host=\(encoded(socketDirectory, keeping: "/"))&port=\(port)"
    }

    /// Over TCP, without TLS (the server has none), e.g.
    /// `postgres://todod@127.0.0.1:41234/items?sslmode=disable`.
    public func tcpURL(database: String, host: String = "127.0.0.1") -> String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(encoded(user, keeping: ""))@\(hostPart):\(port)/\(encoded(database, keeping: ""))"
            + "?sslmode=disable"
    }

    /// Percent-encodes all but unreserved characters and `extra`.
    private func encoded(_ text: String, keeping extra: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        allowed.insert(charactersIn: extra)
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
