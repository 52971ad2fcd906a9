/// Why a piece of text could not be read as a recurrence; the message is
/// written for the person who typed it.
public struct RecurrenceError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }

    static let acceptedForms =
        "expected a repetition such as daily, weekdays, weekly, monthly, yearly, every 3 days, 2w, 6m, 1y, "
        + "optionally followed by \"on day 31\" (monthly and yearly) or \"from completion\""
}

/// Recurrences as text, one form for typing, storing and showing.
///
/// Read case-insensitively, with any spacing:
/// - `daily`, `weekdays`, `weekly`, `monthly`, `yearly`;
/// - `every day|week|month|year`, `every 3 days`, `every 2 weeks`, `every 6 months`, `every 2 years`;
/// - `3d`, `2w`, `6m`, `1y`;
/// - then optionally `on day 31` (the anchor, 29 to 31; see `Recurrence`);
/// - then optionally `from completion`, to count from the day the item was
///   done. A trailing phrase was chosen over a leading `after …` because it
///   reads as a footnote to the period people already know how to type.
///
/// The canonical form (`text`) uses the words, not the short forms —
/// `daily`, `every 3 days`, `monthly on day 31`, `weekly from completion` —
/// and reading it gives back the same value, so it can be stored and shown.
/// `Codable` encodes that text as a single string.
extension Recurrence: CustomStringConvertible, LosslessStringConvertible, Codable {
    public init(parsing text: String) throws(RecurrenceError) {
        var words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        let unrecognised = RecurrenceError(
            message: "\"\(text.trimmingWhitespace())\" is not a repetition I understand: \(RecurrenceError.acceptedForms)")
        var fromCompletion = false
        if words.suffix(2) == ["from", "completion"] {
            fromCompletion = true
            words.removeLast(2)
        }
        var anchorDay: Int?
        if words.count >= 3, words.suffix(3).prefix(2) == ["on", "day"] {
            guard let day = Int(words.last!), words.last!.count <= 2, words.last!.allSatisfy(\.isASCIIDigit) else {
                throw unrecognised
            }
            anchorDay = day
            words.removeLast(3)
        }
        guard let period = Self.period(of: words) else { throw unrecognised }
        try self.init(period, countsFromCompletion: fromCompletion, anchorDay: anchorDay)
    }

    public init?(_ description: String) {
        guard let recurrence = try? Recurrence(parsing: description) else { return nil }
        self = recurrence
    }

    /// The canonical text; see above.
    public var text: String {
        var text =
            switch period {
            case .weekdays: "weekdays"
            case .every(1, .day): "daily"
            case .every(1, .week): "weekly"
            case .every(1, .month): "monthly"
            case .every(1, .year): "yearly"
            case .every(let count, let unit): "every \(count) \(unit.rawValue)s"
            }
        if let anchorDay {
            text += " on day \(anchorDay)"
        }
        if countsFromCompletion {
            text += " from completion"
        }
        return text
    }

    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    private static func period(of words: [String]) -> Period? {
        switch words.count {
        case 1:
            switch words[0] {
            case "daily": return .every(1, .day)
            case "weekdays": return .weekdays
            case "weekly": return .every(1, .week)
            case "monthly": return .every(1, .month)
            case "yearly": return .every(1, .year)
            default: break
            }
            let word = words[0]
            guard let unit = word.last.flatMap({ unit(named: String($0)) }), let count = count(word.dropLast())
            else { return nil }
            return .every(count, unit)
        case 2 where words[0] == "every":
            return unit(named: words[1]).map { .every(1, $0) }
        case 3 where words[0] == "every":
            guard let count = count(words[1][...]), let unit = unit(named: words[2]) else { return nil }
            return .every(count, unit)
        default:
            return nil
        }
    }

    private static func unit(named word: String) -> Unit? {
        switch word {
        case "d", "day", "days": .day
        case "w", "week", "weeks": .week
        case "m", "month", "months": .month
        case "y", "year", "years": .year
        default: nil
        }
    }

    /// Digits only; a count out of range is refused by `init` with its own message.
    private static func count(_ text: Substring) -> Int? {
        guard (1...6).contains(text.count), text.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(text)
    }
}
