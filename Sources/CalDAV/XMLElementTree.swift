import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of a parsed XML document: its namespace and local name, its
/// attributes, its child elements and the text directly inside it.
///
/// WebDAV servers pick their own prefixes (Radicale writes `<multistatus
/// xmlns="DAV:">`, Xandikos `<ns0:multistatus xmlns:ns0="DAV:">`), so an
/// element is only ever identified by (namespace, local name), never by the
/// prefix it was written with.
struct XMLTreeElement: Sendable, Equatable {
    let name: XMLName
    var attributes: [String: String] = [:]
    var children: [XMLTreeElement] = []
    /// The character data directly inside this element (CDATA included), not
    /// that of its descendants.
    var text = ""

    /// The first child element named `name`.
    func child(_ name: XMLName) -> XMLTreeElement? {
        children.first { $0.name == name }
    }

    /// Every child element named `name`, in document order.
    func children(_ name: XMLName) -> [XMLTreeElement] {
        children.filter { $0.name == name }
    }

    /// Whether `name` appears anywhere below this element.
    func containsDescendant(_ name: XMLName) -> Bool {
        children.contains { $0.name == name || $0.containsDescendant(name) }
    }

    /// The text with surrounding white space removed: what a property such as
    /// a href or an ETag means, whatever the server's pretty-printing.
    var trimmedText: String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Why a response body could not be read as XML, in words for an error message.
struct XMLTreeError: Error, Equatable {
    let reason: String
}

/// Parses a whole document into an `XMLTreeElement` tree with FoundationXML's
/// `XMLParser`, namespace-aware.
///
/// The bodies parsed here are bounded by the client's response limit, so a
/// tree in memory is fine, and simpler to check than a streaming reader.
/// Nesting is bounded too: a hostile or broken server must produce an error,
/// not exhaust the stack of whoever walks the tree.
enum XMLElementTree {
    static let maximumDepth = 64

    static func parse(_ data: Data) throws(XMLTreeError) -> XMLTreeElement {
        guard !data.isEmpty else { throw XMLTreeError(reason: "the body is empty, where an XML document was expected") }
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let finished = parser.parse()
        if let reason = builder.failure {
            throw XMLTreeError(reason: reason)
        }
        guard finished, let root = builder.root else {
            let code = (parser.parserError as NSError?)?.code ?? 0
            let place = "line \(parser.lineNumber), column \(parser.columnNumber)"
            let what = endsAt(line: parser.lineNumber, column: parser.columnNumber, of: data)
                ? "it ends before the document is complete (cut short?)" : "parser error \(code) at \(place)"
            throw XMLTreeError(reason: "the body is not well-formed XML: \(what)")
        }
        return root
    }

    /// Whether the parser stopped at the very end of `data`: then the
    /// document was cut short, the likeliest garbage from a server. (The
    /// parser's error codes are libxml2's on Linux and Apple's elsewhere, and
    /// its own words do not come through, so this is the one thing told.)
    private static func endsAt(line: Int, column: Int, of data: Data) -> Bool {
        let newline = UInt8(ascii: "\n")
        let lines = data.reduce(1) { $1 == newline ? $0 + 1 : $0 }
        let lastLineLength = data.count - ((data.lastIndex(of: newline) ?? (data.startIndex - 1)) - data.startIndex + 1)
        return line >= lines && column >= lastLineLength
    }
}

/// The parser's delegate: keeps the open elements on a stack and hangs each
/// one on its parent when it closes.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLTreeElement] = []
    private(set) var root: XMLTreeElement?
    private(set) var failure: String?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard stack.count < XMLElementTree.maximumDepth else {
            fail(parser, "elements are nested more than \(XMLElementTree.maximumDepth) deep")
            return
        }
        guard root == nil else {
            fail(parser, "there is more than one root element")
            return
        }
        let name = XMLName(namespaceURI ?? "", Self.localName(elementName))
        stack.append(XMLTreeElement(name: name, attributes: attributeDict))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        guard let finished = stack.popLast() else { return }
        if stack.isEmpty {
            root = finished
        } else {
            stack[stack.count - 1].children.append(finished)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        if failure == nil { failure = reason }
        parser.abortParsing()
    }

    /// The local part of a name, should a parser hand over `prefix:local`
    /// despite namespace processing.
    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }
}
