/// A JSON-RPC request id, chosen by the client and echoed in the reply so the
/// client can match them up.
///
/// JSON-RPC 2.0 says the reply's id is "the same as the value of the id
/// member in the Request Object", and a client may compare it as text, so an
/// id read from a request keeps its exact JSON text (`json`) and a reply
/// carries that text: `1.0` stays `1.0`, `1e3` stays `1e3`, and a string keeps
/// its escapes. `value` is what the id means; ids are equal, and hash, by
/// meaning, so `.number(7)` finds the reply to a request written with `7`.
public struct RequestID: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Value: Hashable, Sendable {
        /// Written as an integer (no fraction or exponent) within Int64's range.
        case number(Int64)
        case string(String)
        /// Any other number (`1.0`, `1e3`, `99999999999999999999`), as written.
        /// JSON-RPC discourages them, but a reply must still echo them.
        case otherNumber(String)
        /// `"id": null`: allowed (and discouraged) by JSON-RPC; unlike a
        /// missing id, it is a request and is answered.
        case null
    }

    public let value: Value
    /// The id as JSON text: exactly as the client wrote it when read from a
    /// request, else as `JSONEncoder` would write `value`. Replies splice it in.
    public let json: String

    init(value: Value, json: String) {
        self.value = value
        self.json = json
    }

    public static func number(_ number: Int64) -> RequestID {
        RequestID(value: .number(number), json: String(number))
    }

    public static func string(_ string: String) -> RequestID {
        RequestID(value: .string(string), json: JSONStringText.quoted(string))
    }

    public static let null = RequestID(value: .null, json: "null")

    public static func == (lhs: RequestID, rhs: RequestID) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// Reads an id from a reply (the client side); ids the client sends are
    /// integers, so the text of others is rebuilt, not kept.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let number = try? container.decode(Int64.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else {
            let number = try container.decode(Double.self)
            self.init(value: .otherNumber("\(number)"), json: "\(number)")
        }
    }

    /// Encoders write values, not text, so an id encoded this way (in an
    /// event's `cause`) is its value: exact for integers, strings and null;
    /// another number as the nearest Double, or null if no Double is near
    /// (`1e400`): never a crash in the encoder. Replies use `json` instead.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .null: try container.encodeNil()
        case .otherNumber(let text):
            if let number = Double(text), number.isFinite {
                try container.encode(number)
            } else {
                try container.encodeNil()
            }
        }
    }

    public var description: String { json }
}
