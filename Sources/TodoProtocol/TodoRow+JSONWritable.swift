import CanonicalJSON
import TodoViewState

/// A row writes its own JSON: it is in every reply to an edit (`ItemResult`)
/// and in every event's row edits, and writing it through `Encodable` was
/// most of the cost of a `todo.add` reply.
///
/// The members are written by walking `CodingKeys` in the wire's order with
/// a switch that names every key, so a key added to `CodingKeys` does not
/// compile until it is written here too. Each key's name is a literal (its
/// bytes copied as they are, where a `String` would be escaped at run time);
/// `HandWrittenJSONTests` checks that the bytes, names included, are the ones
/// `CanonicalJSONEncoder` writes for the same row.
extension TodoRow: JSONWritable {
    /// `CodingKeys` in declaration order, A to Z (the order the encoder
    /// writes them in, and `RowKeyTests` keeps them in): kept, so a row does
    /// not build the array of cases again.
    private static let membersInWireOrder = CodingKeys.allCases

    public func writeJSON(into bytes: inout [UInt8]) throws {
        bytes.append(UInt8(ascii: "{"))
        var members = 0
        // Left out when nil (plain optionals are encoded if present); written
        // as null when nil (`@ExplicitNull`); always written otherwise.
        for key in Self.membersInWireOrder {
            switch key {
            case .blocked:
                guard let blocked else { continue }
                bytes.appendJSONKey(literal: #""blocked":"#, members: &members)
                bytes.appendJSONBool(blocked)
            case .blocking:
                guard let blocking else { continue }
                bytes.appendJSONKey(literal: #""blocking":"#, members: &members)
                bytes.appendJSONBool(blocking)
            case .completed:
                bytes.appendJSONKey(literal: #""completed":"#, members: &members)
                bytes.appendJSONString(orNull: completed)
            case .context:
                guard let context else { continue }
                bytes.appendJSONKey(literal: #""context":"#, members: &members)
                bytes.appendJSONBool(context)
            case .created:
                bytes.appendJSONKey(literal: #""created":"#, members: &members)
                bytes.appendJSONString(created)
            case .createdText:
                bytes.appendJSONKey(literal: #""createdText":"#, members: &members)
                bytes.appendJSONString(createdText)
            case .depth:
                guard let depth else { continue }
                bytes.appendJSONKey(literal: #""depth":"#, members: &members)
                bytes.appendJSONInteger(depth)
            case .done:
                bytes.appendJSONKey(literal: #""done":"#, members: &members)
                bytes.appendJSONBool(done)
            case .due:
                bytes.appendJSONKey(literal: #""due":"#, members: &members)
                bytes.appendJSONString(orNull: due)
            case .dueText:
                bytes.appendJSONKey(literal: #""dueText":"#, members: &members)
                bytes.appendJSONString(orNull: dueText)
            case .fieldsText:
                bytes.appendJSONKey(literal: #""fieldsText":"#, members: &members)
                bytes.appendJSONString(fieldsText)
            case .group:
                bytes.appendJSONKey(literal: #""group":"#, members: &members)
                bytes.appendJSONString(orNull: group)
            case .id:
                bytes.appendJSONKey(literal: #""id":"#, members: &members)
                bytes.appendJSONInteger(id)
            case .modified:
                bytes.appendJSONKey(literal: #""modified":"#, members: &members)
                bytes.appendJSONString(modified)
            case .noteCount:
                bytes.appendJSONKey(literal: #""noteCount":"#, members: &members)
                bytes.appendJSONInteger(noteCount)
            case .overdue:
                bytes.appendJSONKey(literal: #""overdue":"#, members: &members)
                bytes.appendJSONBool(overdue)
            case .priority:
                bytes.appendJSONKey(literal: #""priority":"#, members: &members)
                bytes.appendJSONString(orNull: priority)
            case .project:
                bytes.appendJSONKey(literal: #""project":"#, members: &members)
                bytes.appendJSONString(orNull: project)
            case .recurrence:
                bytes.appendJSONKey(literal: #""recurrence":"#, members: &members)
                bytes.appendJSONString(orNull: recurrence)
            case .tags:
                bytes.appendJSONKey(literal: #""tags":"#, members: &members)
                bytes.appendJSONArray(tags) { tag, bytes in bytes.appendJSONString(tag) }
            case .title:
                bytes.appendJSONKey(literal: #""title":"#, members: &members)
                bytes.appendJSONString(title)
            case .valueTexts:
                guard let valueTexts else { continue }
                bytes.appendJSONKey(literal: #""valueTexts":"#, members: &members)
                bytes.appendJSONObject(valueTexts) { text, bytes in bytes.appendJSONString(text) }
            case .values:
                guard let values else { continue }
                bytes.appendJSONKey(literal: #""values":"#, members: &members)
                try bytes.appendJSONObject(values) { value, bytes in try value.writeJSON(into: &bytes) }
            case .wait:
                bytes.appendJSONKey(literal: #""wait":"#, members: &members)
                bytes.appendJSONString(orNull: wait)
            case .waitText:
                bytes.appendJSONKey(literal: #""waitText":"#, members: &members)
                bytes.appendJSONString(orNull: waitText)
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }
}

/// As `RowFieldValue.encode(to:)` writes it: text, a number, or an array of ids.
extension RowFieldValue: JSONWritable {
    public func writeJSON(into bytes: inout [UInt8]) throws {
        switch self {
        case .text(let text): bytes.appendJSONString(text)
        case .number(let number): try bytes.appendJSONNumber(number)
        case .ids(let ids): bytes.appendJSONArray(ids) { id, bytes in bytes.appendJSONInteger(id) }
        }
    }
}
