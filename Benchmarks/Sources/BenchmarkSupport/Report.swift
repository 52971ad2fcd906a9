import Foundation

/// What a run prints: each figure as it is measured (todod's with its ratio to
/// the anchor and its target), then the summary table of todod's figures.
/// Shared by the benchmarks, so every report reads the same way.
public final class Report {
    public init() {}

    public private(set) var missed: [ReportLine] = []
    public private(set) var rows: [Comparison] = []

    /// A target as the issue states it: relative to the anchor, or absolute.
    public enum Goal {
        case atMostTimes(Double)
        case atLeastTimes(Double)
        case atMost(Double)
    }

    public func section(_ title: String) {
        print("\n== \(title)")
    }

    /// A figure without a target: an anchor, or a detail.
    public func say(_ label: String, _ value: Double, _ unit: String, _ comment: String? = nil) {
        emit(ReportLine(label, value, unit, comment: comment))
    }

    public func note(_ text: String) {
        print("  \(text)")
    }

    /// A todod figure: printed with its ratio to `anchor` (a name and a figure in
    /// the same unit) and its target, and, under `figure`, added to the summary.
    public func compare(
        _ label: String, _ value: Double, _ unit: String, anchor: (name: String, value: Double)?, goal: Goal?,
        figure: String? = nil
    ) {
        let ratio = anchor.map { value / $0.value }
        var target: ReportLine.Target?
        var targetText: String?
        switch goal {
        case .atMostTimes(let factor)?:
            if let anchor { target = .atMost(factor * anchor.value) }
            targetText = "≤ \(Self.times(factor))"
        case .atLeastTimes(let factor)?:
            if let anchor { target = .atLeast(factor * anchor.value) }
            targetText = "≥ \(Self.times(factor))"
        case .atMost(let bound)?:
            target = .atMost(bound)
            targetText = "≤ " + String(format: "%g", bound) + (unit.hasPrefix("/") ? "" : " ") + unit
        case nil:
            break
        }
        let comment = anchor.map { "\(Comparison.format(ratio: value / $0.value)) \($0.name) (\(Self.figure($0.value, unit)))" }
        let line = ReportLine(label, value, unit, target: target, comment: comment)
        emit(line)
        if let figure {
            rows.append(
                Comparison(
                    figure, anchor: anchor.map { "\($0.name) \(Self.figure($0.value, unit))" },
                    value: Self.figure(value, unit), ratio: ratio, target: targetText,
                    met: target == nil ? nil : line.isMet))
        }
    }

    /// The load and the cores as the run starts: figures from a shared
    /// machine are read next to what else was running.
    public func printLoadAverageAtStart() {
        print("load average at start: \(ProcessFigures.loadAverage) (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
    }

    /// Ends a run of parts: the load then, the targets missed, and (if any
    /// figure was compared) the summary table under `command`, the command
    /// that makes it again.
    public func finish(command: String) {
        print("\nload average at end: \(ProcessFigures.loadAverage)")
        print(
            missed.isEmpty
                ? "every target met"
                : "\(missed.count) target(s) missed:\n" + missed.map(\.description).joined(separator: "\n"))
        if !rows.isEmpty {
            print("\nSummary (`\(command)`, load average \(ProcessFigures.loadAverage)):\n")
            print(rows.markdownTable(valueHeading: "todod"))
        }
    }

    private func emit(_ line: ReportLine) {
        print(line)
        if !line.isMet { missed.append(line) }
    }

    /// Three significant digits (whole numbers from 100): "865/s", "12.7 µs", "1.62 ms".
    public static func figure(_ value: Double, _ unit: String) -> String {
        let digits = value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : 3
        return String(format: "%.\(digits)f", value) + (unit.hasPrefix("/") ? "" : " ") + unit
    }

    public static func times(_ factor: Double) -> String {
        String(format: "%.1f×", factor)
    }
}
