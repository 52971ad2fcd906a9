import CanonicalJSON
import FoundationEssentials

/// What todod keeps of a Taskwarrior file without reading it (an attribute
/// it does not model) is a `JSONValue` read with exact numbers, written back
/// as the same value. Without Foundation's `JSONSerialization`, which
/// todoctl does not link.
extension JSONValue {
    /// A decoder that reads numbers past Int64 and Double's precision exactly (`decimal`).
    static func exactDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[JSONValue.exactNumbers] = true
        return decoder
    }

    /// This value as compact JSON text, keys sorted.
    var text: String {
        String(decoding: (try? Self.encoder.encode(self)) ?? Data("null".utf8), as: UTF8.self)
    }

    /// `text` read as one value, numbers exactly; nil when it is not JSON.
    init?(text: String) {
        guard let value = try? Self.exactDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return nil }
        self = value
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// A JSON object whose values are read one by one: a value `JSONValue` cannot
/// hold (a number past 1e308) is named in `unreadable` rather than losing
/// every other value of the object, or of the file.
struct LenientJSONObject: Decodable {
    var values: [String: JSONValue] = [:]
    var unreadable: [String] = []

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys {
            if let value = try? container.decode(JSONValue.self, forKey: key) {
                values[key.stringValue] = value
            } else {
                unreadable.append(key.stringValue)
            }
        }
    }
}
