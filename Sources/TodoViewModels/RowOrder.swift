import TodoModel

/// The ids of a view's rows, in order, kept in chunks.
///
/// A view of 100,000 rows held as one array moves up to 400 kB of ids for
/// every row placed or taken out in the middle, in every open view, on every
/// edit. Here an insert or a removal moves at most one chunk (≤ 1,024 ids),
/// and finding a place is a binary search over the chunks, then within one.
/// Everything is mutated in place: nothing here copies a view's order.
struct RowOrder: Sequence, Equatable {
    /// A chunk that grows past this is split in two.
    static let maximumChunk = 1024

    private var chunks: [[TodoID]] = []
    private(set) var count = 0

    init(_ ids: [TodoID] = []) {
        let half = Self.maximumChunk / 2
        var start = 0
        chunks.reserveCapacity(ids.count / half + 1)
        while start < ids.count {
            let end = Swift.min(start + half, ids.count)
            chunks.append(Array(ids[start..<end]))
            start = end
        }
        count = ids.count
    }

    var isEmpty: Bool { count == 0 }

    var array: [TodoID] { Array(chunks.joined()) }

    func makeIterator() -> FlattenSequence<[[TodoID]]>.Iterator { chunks.joined().makeIterator() }

    static func == (lhs: RowOrder, rhs: RowOrder) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    subscript(index: Int) -> TodoID {
        let (chunk, offset) = locate(index)
        return chunks[chunk][offset]
    }

    /// The number of ids that satisfy `precedes`, which must hold for a
    /// prefix of the order and not after it: where an id that does not
    /// precede anything before it goes.
    func partitionPoint(_ precedes: (TodoID) -> Bool) -> Int {
        // The first chunk whose last id does not precede.
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(chunks[middle][chunks[middle].count - 1]) { low = middle + 1 } else { high = middle }
        }
        guard low < chunks.count else { return count }
        let chunk = chunks[low]
        var first = 0
        var last = chunk.count
        while first < last {
            let middle = (first + last) / 2
            if precedes(chunk[middle]) { first = middle + 1 } else { last = middle }
        }
        return start(of: low) + first
    }

    mutating func insert(_ id: TodoID, at index: Int) {
        precondition(index >= 0 && index <= count, "row index out of range")
        count += 1
        guard !chunks.isEmpty else {
            chunks.append([id])
            return
        }
        var (chunk, offset) = index == count - 1 ? (chunks.count - 1, chunks[chunks.count - 1].count) : locate(index)
        if offset == 0 && chunk > 0 && chunks[chunk - 1].count < chunks[chunk].count {
            // At a boundary: the shorter neighbour takes it.
            chunk -= 1
            offset = chunks[chunk].count
        }
        chunks[chunk].insert(id, at: offset)
        if chunks[chunk].count > Self.maximumChunk {
            let upper = Array(chunks[chunk][(Self.maximumChunk / 2)...])
            chunks[chunk].removeSubrange((Self.maximumChunk / 2)...)
            chunks.insert(upper, at: chunk + 1)
        }
    }

    @discardableResult
    mutating func remove(at index: Int) -> TodoID {
        let (chunk, offset) = locate(index)
        count -= 1
        let id = chunks[chunk].remove(at: offset)
        if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
        return id
    }

    /// Replaces the id at `index` (a row that keeps its place).
    mutating func replace(at index: Int, with id: TodoID) {
        let (chunk, offset) = locate(index)
        chunks[chunk][offset] = id
    }

    /// The chunk holding `index` and the offset in it.
    private func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        precondition(index >= 0 && index < count, "row index out of range")
        var remaining = index
        for (position, chunk) in chunks.enumerated() {
            if remaining < chunk.count { return (position, remaining) }
            remaining -= chunk.count
        }
        preconditionFailure("row index out of range")
    }

    /// The index of the first id of chunk `position`.
    private func start(of position: Int) -> Int {
        var index = 0
        for chunk in chunks[..<position] { index += chunk.count }
        return index
    }
}

/// Which items a view shows, one bit per id: an edit asks every open view
/// whether it shows the item, and most do not, so the answer must not cost
/// a binary search of the view's rows (a walk over keys spread across the
/// heap). Ids are handed out in order from 1, so the bits stay dense; an id
/// beyond what bits should cover is kept in a set.
struct RowMembers {
    private var words: [UInt64] = []
    private var others: Set<TodoID> = []
    /// The largest id kept as a bit (64 Mi ids: 8 MiB of bits).
    static let bitLimit: Int64 = 1 << 26

    init() {}

    init(_ ids: some Sequence<TodoID>) {
        for id in ids { insert(id) }
    }

    func contains(_ id: TodoID) -> Bool {
        let raw = id.rawValue
        guard raw >= 0 && raw < Self.bitLimit else { return others.contains(id) }
        let word = Int(raw >> 6)
        return word < words.count && words[word] & (1 << UInt64(raw & 63)) != 0
    }

    mutating func insert(_ id: TodoID) {
        let raw = id.rawValue
        guard raw >= 0 && raw < Self.bitLimit else {
            others.insert(id)
            return
        }
        let word = Int(raw >> 6)
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word + 1 - words.count)) }
        words[word] |= 1 << UInt64(raw & 63)
    }

    mutating func remove(_ id: TodoID) {
        let raw = id.rawValue
        guard raw >= 0 && raw < Self.bitLimit else {
            others.remove(id)
            return
        }
        let word = Int(raw >> 6)
        if word < words.count { words[word] &= ~(1 << UInt64(raw & 63)) }
    }
}
