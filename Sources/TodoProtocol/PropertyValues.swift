import CanonicalJSON
import TodoViewState

/// View-model properties as the protocol carries them: by name, each value a
/// `JSONValue`, from and to the declarations (`ViewModelProperty`), so no
/// property is listed here.
extension ViewModelProperties {
    /// The named properties' values as JSON (names that are not properties
    /// are skipped): this runs for every change, for the properties that changed.
    public func values(forKeys keys: [String]) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for property in Self.declarations where keys.contains(property.name) {
            values[property.name] = wireValue(of: property)
        }
        return values
    }

    /// One property's value as JSON.
    public func wireValue(of property: ViewModelProperty<Self>) -> JSONValue {
        do {
            return try JSONValue(encoding: PropertyValue(model: self, property: property))
        } catch {
            // Property values are strings, integers, booleans and arrays of
            // plain structs; encoding one cannot fail unless a type is broken.
            preconditionFailure("encoding the view-model property \(property.name) failed: \(error)")
        }
    }

    /// Sets the properties named in `values` (a state's or an event's) to
    /// those values, and leaves the others, as a client applies a change.
    /// Names that are not properties are ignored, so an older client follows
    /// a newer daemon.
    public mutating func apply(_ values: [String: JSONValue]) throws {
        for property in Self.declarations {
            guard let value = values[property.name] else { continue }
            try property.decodeValue(from: JSONValueDecoder.decoder(for: value, named: property.name), into: &self)
        }
    }

    /// The properties read from a state's `properties`, which must hold every
    /// one (a nullable one may be missing: it is null).
    public init(wireValues: [String: JSONValue]) throws {
        self = try JSONValueDecoder.decode(Self.self, from: .object(wireValues))
    }
}

/// One property of one model, as an `Encodable` value.
private struct PropertyValue<Model>: Encodable {
    let model: Model
    let property: ViewModelProperty<Model>

    func encode(to encoder: any Encoder) throws { try property.encodeValue(of: model, to: encoder) }
}
