/// English names of weekdays and months, for reading and for wording dates.
///
/// Fixed tables rather than a `DateFormatter`: what a user may type, and what
/// a preview says, must not change with the machine's locale.
enum EnglishCalendarNames {
    /// Monday first, matching `CalendarDay.weekday` (1 is Monday).
    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    /// The ISO weekday (1 Monday … 7 Sunday) of a lowercase name: the full
    /// name, its three-letter form, or a common longer abbreviation.
    static func weekday(named word: String) -> Int? {
        weekdaysByName[word]
    }

    /// The month (1 … 12) of a lowercase name: full, three letters, or `sept`.
    static func month(named word: String) -> Int? {
        monthsByName[word]
    }

    private static let weekdaysByName: [String: Int] = {
        var names: [String: Int] = ["tue": 2, "tues": 2, "wed": 3, "thu": 4, "thur": 4, "thurs": 4]
        for (index, name) in weekdayNames.enumerated() {
            names[name.lowercased()] = index + 1
            names[String(name.lowercased().prefix(3))] = index + 1
        }
        return names
    }()

    private static let monthsByName: [String: Int] = {
        var names: [String: Int] = ["sept": 9]
        for (index, name) in monthNames.enumerated() {
            names[name.lowercased()] = index + 1
            names[String(name.lowercased().prefix(3))] = index + 1
        }
        return names
    }()
}
