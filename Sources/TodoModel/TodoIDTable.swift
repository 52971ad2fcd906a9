/// Values by item id, kept in an array indexed by the id.
///
/// Ids are handed out in order from 1 and never reused, so the array stays
/// dense, and a lookup is one read instead of a hash and a probe: views of
/// 100,000 items look items and their sort keys up by id for every row they
/// build and every step of a binary search. An id far beyond the items
/// there are (a list whose early items are long gone) is kept in a
/// dictionary instead, so that the array never grows much larger than the
/// list.
public struct TodoIDTable<Value> {
    private var slots: ContiguousArray<Value?> = []
    private var others: [TodoID: Value] = [:]
    public private(set) var count = 0

    public init() {}

    public subscript(id: TodoID) -> Value? {
        get {
            let raw = id.rawValue
            if raw >= 0 && raw < Int64(slots.count) { return slots[Int(raw)] }
            return others.isEmpty ? nil : others[id]
        }
        set {
            let raw = id.rawValue
            if raw >= 0 && raw >= Int64(slots.count) && newValue != nil && raw < Int64(Self.arrayLimit(forCount: count + 1)) {
                grow(to: Int(raw) + 1)
            }
            if raw >= 0 && raw < Int64(slots.count) {
                let old = slots[Int(raw)]
                slots[Int(raw)] = newValue
                count += (newValue == nil ? 0 : 1) - (old == nil ? 0 : 1)
            } else if let newValue {
                if others.updateValue(newValue, forKey: id) == nil { count += 1 }
            } else if others.removeValue(forKey: id) != nil {
                count -= 1
            }
        }
    }

    /// How far the array may reach for `count` values: ids up to a few
    /// times the number of items, and never less than 4,096.
    private static func arrayLimit(forCount count: Int) -> Int {
        max(4096, 4 * count)
    }

    /// Makes room for `capacity` values without growing again.
    public mutating func reserveCapacity(_ capacity: Int) {
        slots.reserveCapacity(min(capacity + 1, Self.arrayLimit(forCount: capacity)))
    }

    /// Lengthens the array to `size` slots (at least doubling), and moves in
    /// the values kept aside whose ids it now covers.
    private mutating func grow(to size: Int) {
        let target = max(size, min(2 * slots.count, Self.arrayLimit(forCount: count + 1)))
        slots.append(contentsOf: repeatElement(nil, count: target - slots.count))
        guard !others.isEmpty else { return }
        for (id, value) in others where id.rawValue >= 0 && id.rawValue < Int64(slots.count) {
            slots[Int(id.rawValue)] = value
            others[id] = nil
        }
    }
}

extension TodoIDTable: Sendable where Value: Sendable {}
