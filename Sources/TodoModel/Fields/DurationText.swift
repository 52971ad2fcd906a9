/// Durations as people type them and as ISO 8601 writes them.
///
/// Read: a number and a unit (`30min`, `2h`, `1.5h`, `3d`, `1w`, `45s`,
/// `2weeks`), several in a row (`1h30min`), or ISO 8601 (`PT2H30M`, `P3D`,
/// `P1W`), which is what Taskwarrior exports. Months and years are refused:
/// their length depends on when they start. Written: ISO 8601, the largest
/// units first, which every reader of Taskwarrior's export understands.
public enum DurationText {
    /// At most ten years, so that sums and sort keys stay far from overflow.
    public static let maximumSeconds = 10 * 366 * 86_400

    public static func seconds(of text: String) -> Int? {
        let lowered = text.lowercased()
        let total: Double?
        if lowered.hasPrefix("p") {
            total = iso8601(lowered.dropFirst())
        } else {
            total = plain(lowered)
        }
        guard let total, total >= 0, total <= Double(maximumSeconds) else { return nil }
        return Int(total.rounded())
    }

    private static let units: [(names: [String], seconds: Double)] = [
        (["w", "wk", "wks", "week", "weeks"], 604_800),
        (["d", "day", "days"], 86_400),
        (["h", "hr", "hrs", "hour", "hours"], 3_600),
        (["m", "min", "mins", "minute", "minutes"], 60),
        (["s", "sec", "secs", "second", "seconds"], 1),
    ]

    /// `1h30min`: numbers each followed by a unit.
    private static func plain(_ text: String) -> Double? {
        var total = 0.0
        var rest = Substring(text)
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isASCII && $0.isLetter }
            guard let factor = units.first(where: { $0.names.contains(String(unit)) })?.seconds else { return nil }
            rest = rest.dropFirst(unit.count)
            total += value * factor
        }
        return total
    }

    /// ISO 8601 after the `P`: `3D`, `T2H30M`, `1W`, `1DT12H`.
    private static func iso8601(_ text: Substring) -> Double? {
        var total = 0.0
        var inTime = false
        var rest = text
        var any = false
        while !rest.isEmpty {
            if rest.first == "t" {
                guard !inTime else { return nil }
                inTime = true
                rest = rest.dropFirst()
                continue
            }
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number), let designator = rest.dropFirst(number.count).first else {
                return nil
            }
            rest = rest.dropFirst(number.count + 1)
            let factor: Double
            switch (designator, inTime) {
            case ("w", false): factor = 604_800
            case ("d", false): factor = 86_400
            case ("h", true): factor = 3_600
            case ("m", true): factor = 60
            case ("s", true): factor = 1
            default: return nil
            }
            total += value * factor
            any = true
        }
        return any ? total : nil
    }

    /// ISO 8601: `PT2H30M`, `P3D`, `P1DT2H`, `PT0S`.
    public static func iso8601(seconds: Int) -> String {
        let days = seconds / 86_400
        var rest = seconds % 86_400
        let hours = rest / 3_600
        rest %= 3_600
        let minutes = rest / 60
        let remaining = rest % 60
        var text = "P"
        if days > 0 { text += "\(days)D" }
        if hours > 0 || minutes > 0 || remaining > 0 || days == 0 {
            text += "T"
            if hours > 0 { text += "\(hours)H" }
            if minutes > 0 { text += "\(minutes)M" }
            if remaining > 0 || (hours == 0 && minutes == 0) { text += "\(remaining)S" }
        }
        return text
    }

    /// For people: `2h 30min`, `3d`, `45s`.
    public static func worded(seconds: Int) -> String {
        if seconds == 0 { return "0min" }
        var parts: [String] = []
        var rest = seconds
        for (unit, size) in [("w", 604_800), ("d", 86_400), ("h", 3_600), ("min", 60), ("s", 1)] where rest >= size {
            parts.append("\(rest / size)\(unit)")
            rest %= size
        }
        return parts.joined(separator: " ")
    }
}
