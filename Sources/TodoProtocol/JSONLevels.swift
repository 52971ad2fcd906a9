/// An open array or object.
struct JSONLevel {
    var isObject: Bool
    var start: Int
    /// Its index in `members`, or -1 when it is not recorded.
    var member: Int
    /// Where its keys begin in `keys`.
    var firstKey: Int
    /// Its index in `keySets` once it has many keys, else -1.
    var keySet: Int
}

/// The open arrays and objects, innermost last, in storage that never grows.
struct JSONLevels {
    let storage: UnsafeMutableBufferPointer<JSONLevel>
    private(set) var count = 0

    init(storage: UnsafeMutableBufferPointer<JSONLevel>) { self.storage = storage }

    var isEmpty: Bool { count == 0 }
    var last: JSONLevel? { count == 0 ? nil : storage[count - 1] }

    subscript(index: Int) -> JSONLevel {
        get { storage[index] }
        nonmutating set { storage[index] = newValue }
    }

    /// The caller has checked the depth limit, which is the storage's size.
    mutating func append(_ level: JSONLevel) {
        storage.initializeElement(at: count, to: level)
        count += 1
    }

    mutating func removeLast() -> JSONLevel {
        count -= 1
        return storage.moveElement(from: count)
    }
}
