/// Why a piece of text could not be read as a due date.
///
/// The message is written for the person who typed the date: it says what was
/// wrong when that is known (a day that does not exist) and otherwise which
/// forms are understood, so the next attempt can succeed.
public struct NaturalDateError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// What was wrong, when more is known than that the text is no date:
    /// "there is no 31 February".
    public let problem: String?

    public init(message: String, problem: String? = nil) {
        self.message = message
        self.problem = problem
    }

    public var description: String { message }

    /// The accepted forms, briefly, as ending every message.
    public static let acceptedForms =
        "expected a date such as today, tomorrow, fri, next week, eom, in 3 days, 3d, 24 dec, 2026-12-24, "
        + "optionally followed by a time (18:00, 9am)"

    static func unrecognised(_ text: String) -> NaturalDateError {
        NaturalDateError(message: "\"\(text)\" is not a date I understand: \(acceptedForms)")
    }

    /// "there is no 31 February" (or "… 29 February 2027").
    static func noSuchDay(day: Int, month: Int, year: Int?) -> NaturalDateError {
        let date = "\(day) \(EnglishCalendarNames.monthNames[month - 1])" + (year.map { " \($0)" } ?? "")
        return NaturalDateError(message: "there is no \(date); \(acceptedForms)", problem: "there is no \(date)")
    }

    static let offsetNeedsISODate = NaturalDateError(
        message: "a time zone offset (Z, +01:00) is read only after an ISO date such as 2026-12-24T18:00+01:00; "
            + acceptedForms,
        problem: "a time zone offset is read only after an ISO date"
    )
}
