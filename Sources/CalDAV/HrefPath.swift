import Foundation
import PercentEncoding

/// The one spelling of a resource's path that this client uses as its key.
///
/// Servers spell the same path differently: Radicale and Xandikos write
/// `a%40b.ics` for a file named `a@b.ics`, another server may write `a@b.ics`,
/// or `a%2b` for `a%2B`, or an absolute URL. A sync that keyed resources by
/// the bytes the server wrote would see one resource as two. So every href is
/// brought to one form:
///
/// - only the path: an absolute URL (`https://host/cal/x.ics`) loses its
///   scheme and host, a relative href is resolved against the collection;
/// - each segment percent-decoded, then encoded again with everything but
///   RFC 3986's unreserved characters (`A–Z a–z 0–9 - . _ ~`) as `%XX` with
///   upper-case hex. Segments are decoded one by one, so a `%2F` inside a name
///   stays part of that name instead of becoming a separator.
///
/// The result is a valid path to send back (both servers decode what they
/// receive), so the key is also what requests use. Decoding is to bytes, so a
/// name that is not UTF-8 keeps its bytes; a `%` not followed by two hex
/// digits is taken literally (and so sent as `%25`).
enum HrefPath {
    /// `href` as a key, resolved against `collection` (the account's URL), or
    /// nil when it is not a URL at all.
    static func normalise(_ href: String, relativeTo collection: URL) -> String? {
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let path: String
        if trimmed.hasPrefix("/") {
            path = pathPart(of: trimmed)
        } else if let absolute = URL(string: trimmed), absolute.scheme != nil {
            path = absolute.path(percentEncoded: true)
        } else if let decoded = trimmed.removingPercentEncoding, decoded.hasPrefix("http://") || decoded.hasPrefix("https://"),
                  let absolute = URL(string: decoded)
        {
            // Xandikos 0.2.8 writes the href of a missing collection as
            // `http%3A//host%3Aport/path/`: an absolute URL, percent-encoded.
            path = absolute.path(percentEncoded: true)
        } else if let relative = URL(string: trimmed, relativeTo: collection) {
            path = relative.absoluteURL.path(percentEncoded: true)
        } else {
            return nil
        }
        return canonical(path.isEmpty ? "/" : path)
    }

    /// A percent-encoded path in the canonical spelling described above.
    static func canonical(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            // Bytes, not a String, so a name that is not UTF-8 (`%E9` from a
            // Latin-1 server) survives; a stray `%` is taken as it is.
            .map { PercentEncoding.encode(PercentEncoding.decode($0, strayPercent: .literal) ?? Array($0.utf8)) }
            .joined(separator: "/")
    }

    /// `text` as one path segment: every byte but the unreserved ones as `%XX`.
    static func encodeSegment(_ text: String) -> String {
        PercentEncoding.encode(text)
    }

    /// Whether `path` is a direct member of `collectionPath` that can hold
    /// calendar data: below it by exactly one segment, and not a collection
    /// itself (no trailing slash). Names need not end in `.ics`: RFC 4791
    /// leaves them to the server, and python-caldav, DAVx⁵ and Apple's
    /// clients all choose their own.
    static func isMember(_ path: String, of collectionPath: String) -> Bool {
        guard path.hasPrefix(collectionPath), path.count > collectionPath.count else { return false }
        return !path.dropFirst(collectionPath.count).contains("/")
    }

    /// The path of a URL-ish string that starts with `/`, query and fragment cut.
    private static func pathPart(of text: String) -> String {
        let end = text.firstIndex { $0 == "?" || $0 == "#" } ?? text.endIndex
        return String(text[..<end])
    }
}
