import Foundation

/// One line of a benchmark report: a label, a figure with its unit, and,
/// when the figure has a target, whether it was met. Targets are bounds in one
/// direction: `.atMost` for times, `.atLeast` for rates.
public struct ReportLine: CustomStringConvertible {
    public enum Target {
        case atMost(Double)
        case atLeast(Double)
    }

    public var label: String
    public var value: Double
    public var unit: String
    public var target: Target?
    /// Free text after the figure, e.g. "2.4× the floor".
    public var comment: String?

    public init(_ label: String, _ value: Double, _ unit: String, target: Target? = nil, comment: String? = nil) {
        self.label = label
        self.value = value
        self.unit = unit
        self.target = target
        self.comment = comment
    }

    public var isMet: Bool {
        switch target {
        case nil: true
        case .atMost(let bound): value <= bound
        case .atLeast(let bound): value >= bound
        }
    }

    public var description: String {
        let figure = Self.format(value)
        var line = "  \(label.padding(toLength: 52, withPad: " ", startingAt: 0)) \(figure) \(unit)"
        if let comment { line += "  \(comment)" }
        if let target {
            let bound: String
            switch target {
            case .atMost(let value): bound = "≤ \(Self.format(value))"
            case .atLeast(let value): bound = "≥ \(Self.format(value))"
            }
            line += "  (target \(bound) \(unit): \(isMet ? "met" : "MISSED"))"
        }
        return line
    }

    /// Whole numbers and large figures without decimals, small ones with three.
    public static func format(_ value: Double) -> String {
        value >= 100 || value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.3f", value)
    }
}
