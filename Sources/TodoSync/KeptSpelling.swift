import Foundation
import TodoInterchange

extension TodoComponent {
    /// The to-do with each date of `written` (the server's version) put
    /// back as that calendar spelled it wherever this one says the same
    /// moment: todod exports a due time in UTC, an iPhone writes it in its
    /// own zone (`DUE;TZID=Europe/Paris:20261215T180000`). A sync that
    /// rewrote it would move the phone's to-do out of its zone, and its
    /// `VTIMEZONE` would serve nothing.
    public func keepingDateSpellings(of written: TodoComponent?) -> TodoComponent {
        guard let written else { return self }
        var kept = self
        for name in ["DUE", "DTSTART", "COMPLETED"] {
            guard let mine = first(name), let theirs = written.first(name), mine.line != theirs.line,
                let moment = CalendarInstant.moment(of: mine), moment == CalendarInstant.moment(of: theirs)
            else { continue }
            kept.set(name, line: theirs.line)
        }
        return kept
    }
}

extension CalendarInstant {
    /// The moment a date-time property names: in UTC (`…Z`), in the zone
    /// its `TZID` names, or nil (a floating time, a day, a zone unknown):
    /// those are compared as written.
    static func moment(of property: TodoComponent.Property) -> Date? {
        let value = property.value.trimmingCharacters(in: .whitespaces)
        if value.hasSuffix("Z") { return utc(value) }
        guard let zoneName = property.parameters["TZID"], let zone = TimeZone(identifier: zoneName), value.utf8.count == 15,
            let local = utc(value + "Z")
        else { return nil }
        // `local` read the wall-clock time as if in UTC: move it by the zone's offset then.
        let offset = zone.secondsFromGMT(for: local.addingTimeInterval(-Double(zone.secondsFromGMT(for: local))))
        return local.addingTimeInterval(-Double(offset))
    }
}
