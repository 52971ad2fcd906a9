import FoundationEssentials
import NIOCore

/// The page's three files: embedded in the binary (so an installed todod-web
/// needs nothing beside it), or read from a folder at each request
/// (`--page-dir`), for working on the page with a reload.
public enum PageFiles: Sendable {
    case embedded
    case directory(String)

    public struct File: Sendable {
        public let bytes: ByteBuffer
        public let contentType: String
    }

    static let names: [String: String] = [
        "index.html": "text/html; charset=utf-8",
        "style.css": "text/css; charset=utf-8",
        "app.js": "text/javascript; charset=utf-8",
    ]

    /// The file of that name, or nil for any other name.
    public func file(named name: String) -> File? {
        guard let contentType = Self.names[name] else { return nil }
        switch self {
        case .embedded:
            return File(bytes: Self.embeddedBytes[name]!, contentType: contentType)
        case .directory(let folder):
            guard let data = try? Data(contentsOf: URL(filePath: folder + "/" + name)) else { return nil }
            return File(bytes: ByteBuffer(bytes: data), contentType: contentType)
        }
    }

    private static let embeddedBytes: [String: ByteBuffer] = [
        "index.html": ByteBuffer(bytes: PackageResources.index_html),
        "style.css": ByteBuffer(bytes: PackageResources.style_css),
        "app.js": ByteBuffer(bytes: PackageResources.app_js),
    ]
}
