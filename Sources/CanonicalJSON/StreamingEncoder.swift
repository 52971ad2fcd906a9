import FoundationEssentials

/// The `Encoder` behind `CanonicalJSONEncoder`: it appends each value's JSON
/// to `bytes` as `encode(to:)` calls arrive.
///
/// Open containers are a stack of frames. A value's frames close when its
/// `encode(to:)` returns; a nested container's frame closes when its parent
/// is written to again. An object's members are noted as they are written
/// (`members`, shared by every open object) so that one whose keys came out
/// of order can be sorted in place when it closes. Whatever cannot be
/// streamed sets `needsFoundation`, and the caller encodes with
/// `JSONEncoder` instead.
final class StreamingEncoder: Encoder {
    // The encoder is used by one thread at a time and never hands out
    // references to its storage, so the runtime's exclusivity checks on
    // every access (a measurable part of encoding) are switched off.
    @exclusivity(unchecked) var bytes: [UInt8]
    private(set) var needsFoundation = false
    private let datesAsMilliseconds: Bool

    private struct Frame {
        var isObject: Bool
        var id: Int
        /// Opened by `nestedContainer` rather than by a value's `encode(to:)`.
        var isNested: Bool
        var count = 0
        var firstMember: Int
        /// Where the first member starts, just past `{` or `[`.
        var contentStart: Int
        var keysInOrder = true
    }

    private struct Member {
        var key: String
        var start: Int
    }

    @exclusivity(unchecked) private var frames: [Frame] = []
    @exclusivity(unchecked) private var members: [Member] = []
    private var nextFrameID = 0
    /// A value is due and nothing of it is written yet.
    @exclusivity(unchecked) private var valueDue = false
    /// How many frames were open when the value being encoded began.
    @exclusivity(unchecked) private var valueDepth = 0

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(bytes: [UInt8], datesAsMilliseconds: Bool) {
        self.bytes = bytes
        self.datesAsMilliseconds = datesAsMilliseconds
    }

    func encodeTopLevel<Value: Encodable>(_ value: Value) throws {
        valueDue = true
        try encodeDueValue(value)
    }

    /// Marks that we fall back to `JSONEncoder`; the bytes written so far are dropped.
    func cannotStream() { needsFoundation = true }

    // MARK: Values

    /// Encodes `value` where a value is due (after a key, a comma, or at the top).
    func encodeDueValue<Value: Encodable>(_ value: Value) throws {
        if Value.self == Date.self, datesAsMilliseconds {
            try encodeFloatingPoint((value as! Date).timeIntervalSince1970 * 1000)
            return
        }
        // JSONEncoder writes these its own way rather than as they encode themselves.
        if Value.self == Data.self || Value.self == URL.self || Value.self == Decimal.self {
            cannotStream()
            return
        }
        let outerDepth = valueDepth
        valueDepth = frames.count
        try value.encode(to: self)
        if valueDue {
            // Encoded nothing: JSONEncoder writes an empty object.
            bytes.append(contentsOf: "{}".utf8)
            valueDue = false
        }
        closeFrames(downTo: valueDepth)
        valueDepth = outerDepth
    }

    func encodeNull() { takeDueValue(); bytes.append(contentsOf: "null".utf8) }
    func encodeBool(_ value: Bool) { takeDueValue(); bytes.append(contentsOf: (value ? "true" : "false").utf8) }
    func encodeString(_ value: String) { takeDueValue(); JSONText.appendString(value, to: &bytes) }
    func encodeInteger<Integer: BinaryInteger>(_ value: Integer) { takeDueValue(); JSONText.appendInteger(value, to: &bytes) }

    func encodeFloatingPoint<Floating: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Floating) throws {
        guard let text = JSONText.number(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        takeDueValue()
        bytes.append(contentsOf: text.utf8)
    }

    private func takeDueValue() {
        if !valueDue { cannotStream() }
        valueDue = false
    }

    // MARK: Frames

    /// Opens an object or array where a value is due, or (`nested`) after the key or comma just written.
    func openFrame(isObject: Bool, nested: Bool) -> (index: Int, id: Int) {
        if !nested { takeDueValue() }
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        nextFrameID += 1
        frames.append(
            Frame(isObject: isObject, id: nextFrameID, isNested: nested, firstMember: members.count, contentStart: bytes.count))
        return (frames.count - 1, nextFrameID)
    }

    /// The frame a value's `container` call gets: a new one, or, when the
    /// value asks again, the one it opened first (JSONEncoder allows that).
    func frameForValue(isObject: Bool) -> (index: Int, id: Int) {
        if valueDue { return openFrame(isObject: isObject, nested: false) }
        if isObject, let top = frames.last, frames.count - 1 == valueDepth, !top.isNested, top.isObject {
            return (frames.count - 1, top.id)
        }
        cannotStream()
        return openFrame(isObject: isObject, nested: true)
    }

    /// Makes frame `index` the innermost open one before it is written to;
    /// false (and a fall back) if it has closed already.
    func prepareToWrite(frame index: Int, id: Int) -> Bool {
        guard index < frames.count, frames[index].id == id else {
            cannotStream()
            return false
        }
        closeFrames(downTo: index + 1)
        return true
    }

    /// Writes the comma and, in an object, the key before a member's value.
    func beginMember(frame index: Int, key: String?) {
        if frames[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
        frames[index].count += 1
        if let key {
            // Equal keys count as out of order too; sorting finds them.
            if members.count > frames[index].firstMember, let previous = members.last,
                !previous.key.utf8.lexicographicallyPrecedes(key.utf8)
            {
                frames[index].keysInOrder = false
            }
            members.append(Member(key: key, start: bytes.count))
            JSONText.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
        }
        valueDue = true
    }

    private func closeFrames(downTo depth: Int) {
        while frames.count > depth {
            let frame = frames.removeLast()
            if frame.isObject {
                if !frame.keysInOrder { sortMembers(of: frame) }
                members.removeSubrange(frame.firstMember...)
                bytes.append(UInt8(ascii: "}"))
            } else {
                bytes.append(UInt8(ascii: "]"))
            }
        }
    }

    /// Reused by every object sorted in one encoding.
    @exclusivity(unchecked) private var spans: [(key: String, range: Range<Int>)] = []
    @exclusivity(unchecked) private var sorted: [UInt8] = []

    /// Rewrites an object's members in key order (UTF-8 byte order, as JSONEncoder sorts).
    private func sortMembers(of frame: Frame) {
        spans.removeAll(keepingCapacity: true)
        for index in frame.firstMember..<members.count {
            // A member ends before the next one's comma.
            let end = index + 1 < members.count ? members[index + 1].start - 1 : bytes.count
            spans.append((members[index].key, members[index].start..<end))
        }
        spans.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for index in spans.indices.dropFirst() where spans[index].key == spans[index - 1].key {
            cannotStream()  // the same key twice: JSONEncoder keeps one of them
            return
        }
        sorted.removeAll(keepingCapacity: true)
        for (offset, span) in spans.enumerated() {
            if offset > 0 { sorted.append(UInt8(ascii: ",")) }
            sorted.append(contentsOf: bytes[span.range])
        }
        bytes.replaceSubrange(frame.contentStart..., with: sorted)
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let frame = frameForValue(isObject: true)
        return KeyedEncodingContainer(StreamingKeyedContainer<Key>(encoder: self, frame: frame.index, id: frame.id))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let frame = valueDue ? openFrame(isObject: false, nested: false) : frameForValue(isObject: false)
        return StreamingUnkeyedContainer(encoder: self, frame: frame.index, id: frame.id)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamingSingleValueContainer(encoder: self)
    }
}
