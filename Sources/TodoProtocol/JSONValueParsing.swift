import CanonicalJSON
import FoundationEssentials

extension JSONValue {
    /// Reads one JSON text as strictly as requests are read (`JSONScanner`:
    /// UTF-8 only, no duplicate keys, at most 32 levels deep), then builds
    /// the tree from the checked bytes.
    ///
    /// A number becomes `.integer` when written as an integer within Int64,
    /// else `.double`; one beyond Double's range is refused, as it could not
    /// be written back.
    public init(parsing json: some Collection<UInt8>) throws(JSONSyntaxError) {
        func build(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONSyntaxError> {
            Result { () throws(JSONSyntaxError) in try Self.build(UnsafeRawBufferPointer(buffer)) }
        }
        let built = json.withContiguousStorageIfAvailable(build) ?? Array(json).withUnsafeBufferPointer(build)
        self = try built.get()
    }

    private static func build(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
        let scan = try JSONScanner.scan(bytes)
        var builder = TreeBuilder(bytes: bytes, position: scan.value.lowerBound)
        return try builder.value()
    }

    /// Builds the tree of one JSON value the scanner has already checked (a
    /// request's params, scanned with its line), without scanning it again.
    /// Throws for a number beyond Double's range, and for an integer beyond
    /// Int64's: as a Double it could round into range, where `JSONDecoder`,
    /// reading the digits, refuses it for an integer parameter.
    init(checked json: Data) throws(JSONSyntaxError) {
        let built = json.withUnsafeBytes { bytes in
            Result { () throws(JSONSyntaxError) in
                var builder = TreeBuilder(bytes: bytes, position: 0, integersMustFit: true)
                return try builder.value()
            }
        }
        self = try built.get()
    }

    /// Walks bytes the scanner has checked; recursion is bounded by the
    /// scanner's depth limit.
    private struct TreeBuilder {
        let bytes: UnsafeRawBufferPointer
        var position: Int
        var integersMustFit = false

        mutating func value() throws(JSONSyntaxError) -> JSONValue {
            skipWhitespace()
            let start = position
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var object: [String: JSONValue] = [:]
                skipWhitespace()
                while bytes[position] != UInt8(ascii: "}") {
                    let key = string()
                    skipWhitespace()
                    position += 1  // ':'
                    object[key] = try value()
                    skipWhitespace()
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                        skipWhitespace()
                    }
                }
                position += 1
                return .object(object)
            case UInt8(ascii: "["):
                position += 1
                var array: [JSONValue] = []
                skipWhitespace()
                while bytes[position] != UInt8(ascii: "]") {
                    array.append(try value())
                    skipWhitespace()
                    if bytes[position] == UInt8(ascii: ",") { position += 1 }
                    skipWhitespace()
                }
                position += 1
                return .array(array)
            case UInt8(ascii: "\""):
                return .string(string())
            case UInt8(ascii: "t"):
                position += 4
                return .bool(true)
            case UInt8(ascii: "f"):
                position += 5
                return .bool(false)
            case UInt8(ascii: "n"):
                position += 4
                return .null
            default:
                while position < bytes.count, !JSONScanner.isWhitespace(bytes[position]),
                    ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(bytes[position])
                {
                    position += 1
                }
                let text = String(decoding: bytes[start..<position], as: UTF8.self)
                if let integer = Int64(text) { return .integer(integer) }
                if integersMustFit, !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                    throw JSONSyntaxError(offset: start, "the integer \(text.prefix(40)) is beyond Int64")
                }
                guard let double = Double(text), double.isFinite else {
                    throw JSONSyntaxError(offset: start, "the number \(text.prefix(40)) is too large to hold")
                }
                return .double(double)
            }
        }

        private mutating func string() -> String {
            let (contents, hasEscapes) = JSONStringText.extent(in: bytes, openingQuoteAt: position)
            position = contents.upperBound + 1
            return JSONStringText.decode(bytes, contents, hasEscapes: hasEscapes)
        }

        private mutating func skipWhitespace() {
            while position < bytes.count, JSONScanner.isWhitespace(bytes[position]) { position += 1 }
        }
    }
}
