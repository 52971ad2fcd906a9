#if canImport(Glibc)
import Glibc
#endif

/// The per-user secret that opens the page: 256 random bits as 64 hex digits.
///
/// Any local user can connect to a port on 127.0.0.1; only the key keeps the
/// list theirs. It is made on first use by whichever comes first, todod-web
/// or `todoctl web`, in a file only its owner can read; a file others can
/// read is refused, as ssh refuses such a private key.
public enum WebToken {
    /// The key in `paths.tokenFile`, made now if there is none.
    public static func loadOrCreate(_ paths: WebPaths) throws(WebAccessError) -> String {
        if let token = try load(paths) { return token }
        try PrivateFile.makeDirectory(paths.stateDirectory)
        let token = fresh()
        if try PrivateFile.create(paths.tokenFile, text: token + "\n") { return token }
        // Another process made it between our look and our create: use theirs.
        guard let theirs = try load(paths) else { throw WebAccessError("\(paths.tokenFile) vanished while it was made") }
        return theirs
    }

    /// The key, or nil when none was made yet.
    public static func load(_ paths: WebPaths) throws(WebAccessError) -> String? {
        let path = paths.tokenFile
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw WebAccessError("cannot read \(path): \(PrivateFile.lastError)")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw WebAccessError("\(path) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))): chmod 600 it, or remove it for a new key")
        }
        guard info.st_uid == geteuid() else {
            throw WebAccessError("\(path) belongs to another user (uid \(info.st_uid))")
        }
        guard let text = try PrivateFile.readIfPresent(path) else { return nil }
        let token = String(text.filter { !$0.isWhitespace })
        guard isWellFormed(token) else {
            throw WebAccessError("\(path) does not hold a key (64 hex digits): remove it, and a new one is made")
        }
        return token
    }

    /// 32 bytes from the system's cryptographic generator (getrandom).
    public static func fresh() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<32 {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 64 && token.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// Compares in time that does not depend on where the texts differ, so
    /// that timing a wrong guess tells nothing about the right one.
    public static func matches<Candidate: StringProtocol>(_ candidate: Candidate, _ token: String) -> Bool {
        let given = Array(candidate.utf8)
        let expected = Array(token.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
