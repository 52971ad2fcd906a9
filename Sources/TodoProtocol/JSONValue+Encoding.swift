import CanonicalJSON

extension JSONValue {
    /// `value` as the JSON it encodes to: written as every reply is
    /// (`CanonicalJSONEncoder`) and read back (`init(parsing:)`). A
    /// view-model property's value in a state or an event is made so, and a
    /// transaction's commands in `todoctl`.
    ///
    /// There was an encoder straight into a `JSONValue` (`JSONValueEncoder`,
    /// 206 lines); it was no faster than this on the path it was for, the
    /// list view model's properties of an organised list: all 24 in 77–83 µs
    /// either way, an edit's six in 24–33 µs (`json-value-bench`,
    /// docs/performance.md), so it went.
    public init(encoding value: some Encodable) throws {
        try self.init(parsing: CanonicalJSONEncoder().encode(value))
    }
}
