import CanonicalJSON

/// `{"item":ROW}`: the reply to `todo.add` and every other command on one
/// item, written by hand because the row is (`TodoRow+JSONWritable.swift`).
extension ItemResult: JSONWritable {
    public func writeJSON(into bytes: inout [UInt8]) throws {
        bytes.appendJSONLiteral(#"{"item":"#)
        try item.writeJSON(into: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}
