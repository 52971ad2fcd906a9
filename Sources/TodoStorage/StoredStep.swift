import Foundation
import TodoModel

/// Undo steps as the store keeps them: a compact binary form written and read
/// by hand, in a BLOB.
///
/// Every commit stores one step, and through `Codable` (JSON) its encoding
/// cost more than the rest of the write; its bytes were also three times as
/// many. Steps that earlier versions stored as JSON text stay as they are and
/// are read as JSON (`SQLiteTodoStore.load` tells them apart by SQLite's
/// type: TEXT is JSON, BLOB is this form).
///
/// The form, in order (a varint is LEB128, a signed one zigzag first; a
/// string is a varint byte count and UTF-8; a date is its
/// `timeIntervalSince1970` as the 8 bytes of a little-endian `Double`, so it
/// reads back exactly):
///
/// - the format byte, 1;
/// - the description, a string; a flags byte (1: an origin follows) and the origin;
/// - the number of changes, and for each a byte (1: before, 2: after) and those items;
/// - an item: a varint of flags (`ItemBits`), the id (signed), the title,
///   the creation date, and then each field its flag says is there, in the
///   flags' order. Declared fields' values and what other programs keep are
///   JSON, as their columns in the item table are (rare, and nested).
///
/// A flag or format this version does not know fails the read, naming it,
/// rather than dropping a field: undoing such a step is refused with the reason.
enum StoredStep {
    static let format: UInt8 = 1

    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The bits of an item's flags varint.
    private enum ItemBits {
        static let isDone: UInt64 = 1 << 0
        static let updatedAt: UInt64 = 1 << 1  // set when it differs from createdAt
        static let completedAt: UInt64 = 1 << 2
        static let due: UInt64 = 1 << 3
        static let tags: UInt64 = 1 << 4
        static let project: UInt64 = 1 << 5
        static let priority: UInt64 = 1 << 6
        static let notes: UInt64 = 1 << 7
        static let wait: UInt64 = 1 << 8
        static let recurrence: UInt64 = 1 << 9
        static let values: UInt64 = 1 << 10
        static let fieldChangedAt: UInt64 = 1 << 11
        static let externalID: UInt64 = 1 << 12
        static let foreign: UInt64 = 1 << 13
        static let known: UInt64 = (1 << 14) - 1
    }

    // MARK: Writing

    /// The stored form of `step`. A stored step whose changes could not be
    /// read is refused, as its JSON encoding was: written back with no
    /// changes, the damage would be lost.
    static func encode(_ step: UndoStep) throws -> [UInt8] {
        if let failure = step.readFailure { throw ReadError(description: failure) }
        var writer = Writer()
        writer.bytes.append(format)
        writer.string(step.description)
        if let origin = step.origin {
            writer.bytes.append(1)
            writer.string(origin)
        } else {
            writer.bytes.append(0)
        }
        let changes = step.changes
        writer.varint(UInt64(changes.count))
        for change in changes {
            writer.bytes.append((change.before == nil ? 0 : 1) | (change.after == nil ? 0 : 2))
            if let before = change.before { try writer.item(before) }
            if let after = change.after { try writer.item(after) }
        }
        return writer.bytes
    }

    private struct Writer {
        var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(256) }

        mutating func varint(_ value: UInt64) {
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        mutating func signed(_ value: Int64) {
            varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
        }

        mutating func double(_ value: Double) {
            let bits = value.bitPattern
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        }

        mutating func date(_ date: Date) { double(date.timeIntervalSince1970) }

        mutating func string(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                varint(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func json(_ value: some Encodable) throws {
            let data = try StoredStep.jsonEncoder.encode(value)
            varint(UInt64(data.count))
            bytes.append(contentsOf: data)
        }

        mutating func dueDate(_ date: DueDate) {
            switch date {
            case .day(let day):
                bytes.append(0)
                signed(Int64(day.year))
                signed(Int64(day.month))
                signed(Int64(day.day))
            case .moment(let moment):
                bytes.append(1)
                self.date(moment)
            }
        }

        mutating func item(_ item: TodoItem) throws {
            var flags: UInt64 = 0
            if item.isDone { flags |= ItemBits.isDone }
            if item.updatedAt != item.createdAt { flags |= ItemBits.updatedAt }
            if item.completedAt != nil { flags |= ItemBits.completedAt }
            if item.due != nil { flags |= ItemBits.due }
            if !item.tags.isEmpty { flags |= ItemBits.tags }
            if item.project != nil { flags |= ItemBits.project }
            if item.priority != nil { flags |= ItemBits.priority }
            if !item.notes.isEmpty { flags |= ItemBits.notes }
            if item.wait != nil { flags |= ItemBits.wait }
            if item.recurrence != nil { flags |= ItemBits.recurrence }
            if !item.values.isEmpty { flags |= ItemBits.values }
            if !item.fieldChangedAt.isEmpty { flags |= ItemBits.fieldChangedAt }
            if item.externalID != nil { flags |= ItemBits.externalID }
            if !item.foreign.isEmpty { flags |= ItemBits.foreign }
            varint(flags)
            signed(item.id.rawValue)
            string(item.title)
            date(item.createdAt)
            if flags & ItemBits.updatedAt != 0 { date(item.updatedAt) }
            if let completedAt = item.completedAt { date(completedAt) }
            if let due = item.due { dueDate(due) }
            if !item.tags.isEmpty {
                let tags = item.sortedTags
                varint(UInt64(tags.count))
                for tag in tags { string(tag) }
            }
            if let project = item.project { string(project) }
            if let priority = item.priority { string(priority.letter) }
            if !item.notes.isEmpty {
                varint(UInt64(item.notes.count))
                for note in item.notes {
                    string(note.text)
                    date(note.addedAt)
                }
            }
            if let wait = item.wait { dueDate(wait) }
            if let recurrence = item.recurrence { string(recurrence.text) }
            if !item.values.isEmpty { try json(item.values) }
            if !item.fieldChangedAt.isEmpty {
                // In the fields' order, so that equal items are equal bytes.
                let changed = item.fieldChangedAt.sorted { $0.key.rawValue < $1.key.rawValue }
                varint(UInt64(changed.count))
                for (field, date) in changed {
                    string(field.rawValue)
                    self.date(date)
                }
            }
            if let externalID = item.externalID { string(externalID) }
            if !item.foreign.isEmpty { try json(item.foreign) }
        }
    }

    private static let jsonEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private static let jsonDecoder = JSONDecoder()

    // MARK: Reading

    /// The description and origin at the start of a stored form, without
    /// reading the changes (at start-up only the newest step's description
    /// is shown); nil if the bytes are not this form.
    static func header(of bytes: [UInt8]) -> (description: String, origin: String?)? {
        var reader = Reader(bytes: bytes)
        guard (try? reader.byte()) == format, let description = try? reader.string(), let flags = try? reader.byte(),
            flags & ~1 == 0
        else { return nil }
        guard flags & 1 != 0 else { return (description, nil) }
        guard let origin = try? reader.string() else { return nil }
        return (description, origin)
    }

    /// The step stored as `bytes`, changes and all.
    static func decode(_ bytes: [UInt8]) throws -> UndoStep {
        var reader = Reader(bytes: bytes)
        let version = try reader.byte()
        guard version == format else { throw ReadError(description: "stored in form \(version), which this version of todod does not know") }
        let description = try reader.string()
        let stepFlags = try reader.byte()
        guard stepFlags & ~1 == 0 else { throw ReadError(description: "a step flag this version does not know (\(stepFlags))") }
        let origin = stepFlags & 1 != 0 ? try reader.string() : nil
        let count = try reader.count()
        var changes: [ItemChange] = []
        changes.reserveCapacity(count)
        for _ in 0..<count {
            let which = try reader.byte()
            guard which & ~3 == 0, which != 0 else { throw ReadError(description: "a change of an unknown kind (\(which))") }
            let before = which & 1 != 0 ? try reader.item() : nil
            let after = which & 2 != 0 ? try reader.item() : nil
            changes.append(ItemChange(before: before, after: after))
        }
        guard reader.isAtEnd else { throw ReadError(description: "\(reader.remaining) bytes after the last change") }
        var step = UndoStep(description: description, changes: changes)
        step.origin = origin
        return step
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }
        var remaining: Int { bytes.count - index }

        mutating func byte() throws -> UInt8 {
            guard index < bytes.count else { throw ReadError(description: "cut short") }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                guard shift < 64 else { throw ReadError(description: "a number too long") }
                value |= UInt64(next & 0x7F) << shift
                if next < 0x80 { return value }
                shift += 7
            }
        }

        mutating func signed() throws -> Int64 {
            let raw = try varint()
            return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        }

        /// A count of things that follow, each at least a byte long.
        mutating func count() throws -> Int {
            let value = try varint()
            guard value <= UInt64(remaining) else { throw ReadError(description: "a count of \(value) past the end") }
            return Int(value)
        }

        mutating func double() throws -> Double {
            guard remaining >= 8 else { throw ReadError(description: "cut short") }
            var bits: UInt64 = 0
            for offset in 0..<8 { bits |= UInt64(bytes[index + offset]) << UInt64(8 * offset) }
            index += 8
            return Double(bitPattern: bits)
        }

        mutating func date() throws -> Date { Date(timeIntervalSince1970: try double()) }

        mutating func slice() throws -> ArraySlice<UInt8> {
            let length = try count()
            defer { index += length }
            return bytes[index..<(index + length)]
        }

        mutating func string() throws -> String {
            let utf8 = try slice()
            guard let text = String(validating: utf8, as: UTF8.self) else { throw ReadError(description: "text that is not UTF-8") }
            return text
        }

        mutating func json<T: Decodable>(_ type: T.Type) throws -> T {
            try StoredStep.jsonDecoder.decode(T.self, from: Data(try slice()))
        }

        mutating func dueDate() throws -> DueDate {
            switch try byte() {
            case 0:
                let year = try signed(), month = try signed(), day = try signed()
                guard let year = Int(exactly: year), let month = Int(exactly: month), let day = Int(exactly: day) else {
                    throw ReadError(description: "a day out of range")
                }
                return .day(CalendarDay(year: year, month: month, day: day))
            case 1:
                return .moment(try date())
            case let kind:
                throw ReadError(description: "a date of an unknown kind (\(kind))")
            }
        }

        mutating func item() throws -> TodoItem {
            let flags = try varint()
            guard flags & ~ItemBits.known == 0 else {
                throw ReadError(description: "an item field this version does not know (flags \(flags))")
            }
            func has(_ bit: UInt64) -> Bool { flags & bit != 0 }
            let id = TodoID(try signed())
            let title = try string()
            let createdAt = try date()
            let updatedAt = has(ItemBits.updatedAt) ? try date() : createdAt
            let completedAt = has(ItemBits.completedAt) ? try date() : nil
            let due = has(ItemBits.due) ? try dueDate() : nil
            var tags: Set<String> = []
            if has(ItemBits.tags) {
                let count = try count()
                tags.reserveCapacity(count)
                for _ in 0..<count { tags.insert(try string()) }
            }
            let project = has(ItemBits.project) ? try string() : nil
            var priority: Priority?
            if has(ItemBits.priority) {
                let letter = try string()
                guard let known = Priority(letter: letter) else { throw ReadError(description: "a priority \(letter.debugDescription)") }
                priority = known
            }
            var notes: [TodoNote] = []
            if has(ItemBits.notes) {
                let count = try count()
                notes.reserveCapacity(count)
                for _ in 0..<count { notes.append(TodoNote(text: try string(), addedAt: try date())) }
            }
            let wait = has(ItemBits.wait) ? try dueDate() : nil
            var recurrence: Recurrence?
            if has(ItemBits.recurrence) {
                let text = try string()
                guard let known = Recurrence(text) else { throw ReadError(description: "a repetition \(text.debugDescription)") }
                recurrence = known
            }
            let values = has(ItemBits.values) ? try json([String: FieldValue].self) : [:]
            var fieldChangedAt: [ItemField: Date] = [:]
            if has(ItemBits.fieldChangedAt) {
                let count = try count()
                for _ in 0..<count { fieldChangedAt[ItemField(rawValue: try string())] = try date() }
            }
            let externalID = has(ItemBits.externalID) ? try string() : nil
            let foreign = has(ItemBits.foreign) ? try json(ForeignFields.self) : ForeignFields()
            return TodoItem(
                id: id, title: title, isDone: has(ItemBits.isDone), createdAt: createdAt, updatedAt: updatedAt,
                completedAt: completedAt, due: due, tags: tags, project: project, priority: priority, notes: notes,
                wait: wait, recurrence: recurrence, values: values, fieldChangedAt: fieldChangedAt,
                externalID: externalID, foreign: foreign)
        }
    }
}
