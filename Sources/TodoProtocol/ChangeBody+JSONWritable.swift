import CanonicalJSON
import TodoViewState

/// An event's body writes its own JSON, as its row edits carry rows, which
/// write themselves (`TodoRow+JSONWritable.swift`): every edit sends one to
/// each group of subscribers. The members are in the wire's order, A to Z,
/// as the encoder writes (and, for `Cause`, sorts) them.
extension ChangeBody: JSONWritable {
    public func writeJSON(into bytes: inout [UInt8]) throws {
        bytes.appendJSONLiteral(#"{"cause":"#)
        if let cause { try cause.writeJSON(into: &bytes) } else { bytes.appendJSONNull() }
        bytes.appendJSONLiteral(#","properties":"#)
        try bytes.appendJSONObject(properties) { value, bytes in try value.writeJSON(into: &bytes) }
        bytes.appendJSONLiteral(#","reset":"#)
        bytes.appendJSONBool(reset)
        bytes.appendJSONLiteral(#","revision":"#)
        bytes.appendJSONInteger(revision)
        bytes.appendJSONLiteral(#","rows":"#)
        try bytes.appendJSONArray(rows) { edit, bytes in try edit.writeJSON(into: &bytes) }
        bytes.append(UInt8(ascii: "}"))
    }
}

/// `Cause.encode(to:)` writes connection, request, instance, origin; the
/// encoder sorts them, so here they are A to Z, `request` always (null
/// without one), `instance` and `origin` only when present.
extension Cause: JSONWritable {
    public func writeJSON(into bytes: inout [UInt8]) throws {
        bytes.appendJSONLiteral(#"{"connection":"#)
        bytes.appendJSONInteger(connection)
        if let instance {
            bytes.appendJSONLiteral(#","instance":"#)
            bytes.appendJSONString(instance)
        }
        if let origin {
            bytes.appendJSONLiteral(#","origin":"#)
            bytes.appendJSONString(origin)
        }
        bytes.appendJSONLiteral(#","request":"#)
        if let request { try request.writeValueJSON(into: &bytes) } else { bytes.appendJSONNull() }
        bytes.append(UInt8(ascii: "}"))
    }
}

extension RequestID {
    /// The id as `encode(to:)` writes it, its value rather than its text
    /// (replies splice `json` instead): another number as the nearest
    /// Double, or null when no Double is near.
    func writeValueJSON(into bytes: inout [UInt8]) throws {
        switch value {
        case .number(let number): bytes.appendJSONInteger(number)
        case .string(let string): bytes.appendJSONString(string)
        case .null: bytes.appendJSONNull()
        case .otherNumber(let text):
            if let number = Double(text), number.isFinite {
                try bytes.appendJSONNumber(number)
            } else {
                bytes.appendJSONNull()
            }
        }
    }
}

/// A row edit's members as its synthesized `encode(to:)` writes them, A to
/// Z, each optional one only when present.
extension RowEdit: JSONWritable {
    public func writeJSON(into bytes: inout [UInt8]) throws {
        bytes.append(UInt8(ascii: "{"))
        if let from {
            bytes.appendJSONLiteral(#""from":"#)
            bytes.appendJSONInteger(from)
            bytes.append(UInt8(ascii: ","))
        }
        if let index {
            bytes.appendJSONLiteral(#""index":"#)
            bytes.appendJSONInteger(index)
            bytes.append(UInt8(ascii: ","))
        }
        bytes.appendJSONLiteral(#""op":"#)
        bytes.appendJSONString(op.rawValue)
        if let row {
            bytes.appendJSONLiteral(#","row":"#)
            try row.writeJSON(into: &bytes)
        }
        if let rows {
            bytes.appendJSONLiteral(#","rows":"#)
            try bytes.appendJSONArray(rows) { row, bytes in try row.writeJSON(into: &bytes) }
        }
        bytes.append(UInt8(ascii: "}"))
    }
}
