/// The numbers every benchmark here reports, computed one way.

/// The value below which `fraction` of `values` fall (nearest rank; 0.5 is the median).
public func percentile(_ values: [Double], _ fraction: Double) -> Double {
    precondition(!values.isEmpty, "no samples")
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

extension Duration {
    /// The duration in milliseconds, as a `Double`, for arithmetic and printing.
    public var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// The duration in microseconds.
    public var microseconds: Double { milliseconds * 1000 }
}

/// Runs `body` and returns its result with the time it took in milliseconds.
public func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = ContinuousClock.now
    let result = try body()
    return (result, (ContinuousClock.now - start).milliseconds)
}
