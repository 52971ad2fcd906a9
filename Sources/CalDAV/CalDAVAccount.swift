import Foundation

/// Where a CalDAV collection is and how to log in to it.
///
/// The URL is normalised once here, so that every path the client builds and
/// every href it compares starts from the same spelling: http or https only,
/// no credentials, query or fragment, the path in `HrefPath`'s canonical form
/// and ending in `/` (a collection's URL does, and servers redirect or refuse
/// without it).
public struct CalDAVAccount: Sendable, Equatable, CustomStringConvertible {
    /// The calendar collection, ending in `/`.
    public let collectionURL: URL
    public let user: String
    /// Sent as HTTP Basic credentials; never shown by `description` or in errors.
    public let password: String
    /// A PEM file of CA certificates trusted in addition to the system's, for
    /// a server whose certificate is self-signed or from a private CA.
    public let caFile: String?

    public init(collectionURL: String, user: String, password: String, caFile: String? = nil) throws(CalDAVError) {
        guard let url = URL(string: collectionURL.trimmingCharacters(in: .whitespaces)) else {
            throw .invalidAccount("\"\(Self.withoutCredentials(collectionURL))\" is not a URL (a collection's URL starts with https:// or http://)")
        }
        try self.init(collectionURL: url, user: user, password: password, caFile: caFile)
    }

    public init(collectionURL: URL, user: String, password: String, caFile: String? = nil) throws(CalDAVError) {
        guard var components = URLComponents(url: collectionURL, resolvingAgainstBaseURL: true) else {
            throw .invalidAccount("\"\(Self.withoutCredentials(collectionURL.absoluteString))\" is not a URL")
        }
        let scheme = components.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .invalidAccount("\(Self.withoutCredentials(collectionURL.absoluteString)) is not an http or https URL (a collection's URL starts with https:// or http://)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .invalidAccount("\(Self.withoutCredentials(collectionURL.absoluteString)) has no host")
        }
        guard components.user == nil, components.password == nil else {
            throw .invalidAccount(
                "\(Self.withoutCredentials(collectionURL.absoluteString)) has a user name or password in it; give them separately")
        }
        components.scheme = scheme
        components.query = nil
        components.fragment = nil
        var path = HrefPath.canonical(components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
        if !path.hasSuffix("/") { path += "/" }
        components.percentEncodedPath = path
        guard let normalised = components.url else {
            throw .invalidAccount("\(Self.withoutCredentials(collectionURL.absoluteString)) cannot be used as a collection URL")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw .invalidAccount("cannot read the CA file \(caFile)")
        }
        self.collectionURL = normalised
        self.user = user
        self.password = password
        self.caFile = caFile
    }

    /// The collection's path, canonical and ending in `/`: the prefix of every member's key.
    public var collectionPath: String { collectionURL.path(percentEncoded: true) }

    public var description: String {
        "CalDAVAccount(\(user) at \(collectionURL.absoluteString)\(caFile.map { ", CA file \($0)" } ?? ""))"
    }

    /// `text` with anything between `//` and `@` cut: for error messages about
    /// a URL that carried credentials.
    private static func withoutCredentials(_ text: String) -> String {
        guard let start = text.range(of: "//"), let at = text[start.upperBound...].firstIndex(of: "@") else { return text }
        return String(text[..<start.upperBound]) + "…" + String(text[at...])
    }
}
