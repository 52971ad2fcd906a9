import Foundation

/// One row of the table a benchmark ends with: a figure next to the anchor it
/// is judged against (measured in the same run), their ratio, and the target.
public struct Comparison {
    public var figure: String
    /// The anchor's name and figure, e.g. "echo floor 12.7 µs"; nil for an
    /// absolute target.
    public var anchor: String?
    /// The figure with its unit, e.g. "218 µs".
    public var value: String
    /// The figure divided by the anchor's.
    public var ratio: Double?
    /// The target as stated, e.g. "≤ 3×" or "≤ 0.5 s"; nil for information.
    public var target: String?
    public var met: Bool?

    public init(_ figure: String, anchor: String? = nil, value: String, ratio: Double? = nil, target: String? = nil, met: Bool? = nil) {
        self.figure = figure
        self.anchor = anchor
        self.value = value
        self.ratio = ratio
        self.target = target
        self.met = met
    }

    /// Two significant digits below 10 (0.20×, 0.0043×, 2.9×), whole above.
    public static func format(ratio: Double) -> String {
        guard ratio.isFinite, ratio > 0 else { return "—" }
        if ratio >= 10 { return String(format: "%.0f×", ratio) }
        let decimals = max(1, 1 - Int(log10(ratio).rounded(.down)))
        return String(format: "%.\(decimals)f×", ratio)
    }
}

extension [Comparison] {
    /// A Markdown table, to paste into a note: figure | anchor | todod | ratio | target | met?
    public func markdownTable(valueHeading: String) -> String {
        var lines = ["| figure | anchor (same run) | \(valueHeading) | ratio | target | met? |", "|---|---|---:|---:|---|---|"]
        for row in self {
            let cells = [
                row.figure, row.anchor ?? "—", row.value, row.ratio.map(Comparison.format(ratio:)) ?? "—",
                row.target ?? "—", row.met.map { $0 ? "yes" : "**no**" } ?? "—",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
