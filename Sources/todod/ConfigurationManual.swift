import Foundation
import TodoDaemon

/// todod.conf(5), written from the settings' declarations
/// (`DaemonSettings.Name`), so the manual lists exactly the settings todod
/// reads, with the defaults it uses. `scripts/package` installs it.
enum ConfigurationManual {
    /// The page in mdoc, dated by `SOURCE_DATE_EPOCH` when set (a
    /// reproducible package), else today.
    static var page: String {
        let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init)
        let date = epoch.map(Date.init(timeIntervalSince1970:)) ?? Date()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                      "October", "November", "December"]
        var lines = [
            ".Dd \(months[parts.month! - 1]) \(parts.day!), \(parts.year!)",
            ".Dt TODOD.CONF 5",
            ".Os",
            ".Sh NAME",
            ".Nm todod.conf",
            ".Nd settings of the todod to-do daemon",
            ".Sh SYNOPSIS",
            ".Pa $XDG_CONFIG_HOME/todod/todod.conf",
            ".Pp",
            ".Pa ~/.config/todod/todod.conf",
            ".Sh DESCRIPTION",
            ".Xr todod 1",
            "reads this file when it starts, if it exists, and again on",
            ".Ic systemctl --user reload todod",
            "(SIGHUP).",
            "Each line is",
            ".Ql name = value ;",
            ".Ql #",
            "at the start of a line or after a blank starts a comment (one inside a value is part of it),",
            "and blank lines are ignored; web.conf and todod-sync's sync.conf read the same way.",
            "The names are those of todod's options: an option given on the command line wins over the file,",
            "also after a reload.",
            "A file todod cannot use keeps it from serving, naming the line and what is wrong:",
            "started by todod.socket, todod stays up to tell every client so (server.badConfiguration),",
            "until it is stopped (exit status 78) or reloaded (exit status 0, to start afresh on the next connection);",
            "run by hand, it exits 78 at once;",
            "at a reload it is reported in the journal and the settings in use stay.",
            ".Pp",
            "The settings:",
            ".Bl -tag -width Ds",
        ]
        for name in DaemonSettings.Name.allCases {
            lines += [
                ".It Cm \(name.rawValue) No = Ar \(name.valueName)",
                name.summary,
                "Default:",
                ".Ql \(name.defaultText) .",
            ]
        }
        lines += [
            ".It Cm field. Ns Ar name No = Ar kind Op Qq Ar label Op Ar values",
            "Declares a field every item may have, as Taskwarrior's user-defined attributes:",
            "its kind is string, numeric, date or duration; the label is how rows and",
            ".Ic todoctl show",
            "name it; a string field may list the only values it takes, separated by commas.",
            "The name is 1 to 32 lowercase letters and no word todod already uses.",
            "Example:",
            ".Ql field.estimate = numeric \"Estimate\" ;",
            ".Ql field.size = string \"Size\" S,M,L .",
            "Removing a declaration keeps the values items have: they are shown raw and exported as they came.",
            ".El",
            ".Sh FILES",
            ".Bl -tag -width Ds",
            ".It Pa ~/.local/share/todod/todos.sqlite",
            "The list, its history and its named views.",
            ".El",
            ".Sh EXAMPLES",
            "Remind after two days, and log less:",
            ".Bd -literal -offset indent",
            "reminder-hours = 48",
            "log-level = notice",
            ".Ed",
            ".Sh SEE ALSO",
            ".Xr todoctl 1 ,",
            ".Xr todod 1 ,",
            ".Xr systemd.service 5",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
