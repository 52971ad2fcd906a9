import Foundation
import TodoInterchange

/// A to-do changed on both sides since they last agreed, merged field by
/// field against that agreed version (`base`):
///
/// - a field changed on one side only takes that side's value;
/// - a field changed on both sides to different values takes the value of
///   the side that changed last (`LAST-MODIFIED`; the list's on a tie),
///   and the other value is kept as a note on the to-do ("conflict: Tasks.org
///   set due to Sat 12 Dec 2026"), so nothing anyone typed is lost;
/// - with no agreed version (the same to-do met for the first time on both
///   sides, or after what was agreed was forgotten), every field a person
///   sees that the two sides have differently is such a conflict, one
///   side having it and the other not included: which side changed it
///   cannot be known, so the later side's value is taken and the other kept
///   as a note that says what that side had ("conflict: todod had due Sat
///   12 Dec 2026"), never a silent choice. A property no person sees (a
///   phone's sort order) that one side alone has is taken from it.
///
/// Properties the merge does not know are fields like any other: each
/// side's `X-` lines, `URL` or `VALARM` survive as that side wrote them.
public enum ThreeWayMerge {
    /// The notes todod keeps on one item (`TodoItem.maximumNotes`).
    static let maximumNotes = 100

    /// The two sides' names, as the notes say them.
    public struct Sides: Sendable {
        public var local: String
        public var remote: String
        public init(local: String, remote: String) {
            self.local = local
            self.remote = remote
        }
    }

    /// A field both sides changed: what the losing side had set, worded.
    public struct Conflict: Hashable, Sendable {
        public var field: String
        /// Whether the list's value was the one that lost.
        public var localLost: Bool
        public var note: String
    }

    public struct Result: Sendable {
        public var todo: TodoComponent
        public var conflicts: [Conflict]
        /// Fields taken from the server's side (what the list must take in).
        public var fromRemote: [String]
        /// Fields taken from the list's side (what the server must take in).
        public var fromLocal: [String]
    }

    public static func merge(
        base: TodoComponent?, local: TodoComponent, remote: TodoComponent, sides: Sides, now: Date, timeZone: TimeZone
    ) -> Result {
        let remoteIsLater = (remote.lastModified ?? .distantPast) > (local.lastModified ?? .distantPast)
        var fields = SyncField.fields(of: local)
        for field in SyncField.fields(of: remote) where !fields.contains(field) { fields.append(field) }
        var takeRemote: Set<String> = []
        var conflicts: [Conflict] = []
        var fromLocal: [String] = []
        for field in fields {
            let localValue = SyncField.value(of: field, in: local)
            let remoteValue = SyncField.value(of: field, in: remote)
            guard localValue != remoteValue else { continue }
            // With no agreed version, what only one side has is that side's
            // to give when no person sees it (a phone's sort order); a field
            // a person sees (a due date one side lacks: added there, or
            // cleared here?) is a conflict like any other difference.
            let oneSided = (localValue == nil || remoteValue == nil) && !SyncField.isShown(field)
            let baseValue = base.map { SyncField.value(of: field, in: $0) } ?? (oneSided ? .some(nil) : nil)
            if let baseValue, baseValue == localValue {
                takeRemote.insert(field)
            } else if let baseValue, baseValue == remoteValue {
                fromLocal.append(field)
            } else {
                // Both changed it (or there is no agreed version).
                let loser = remoteIsLater ? local : remote
                if remoteIsLater { takeRemote.insert(field) } else { fromLocal.append(field) }
                let name = remoteIsLater ? sides.local : sides.remote
                conflicts.append(
                    Conflict(
                        field: field, localLost: remoteIsLater,
                        note: ConflictWording.note(side: name, field: field, in: loser, timeZone: timeZone, agreed: base != nil)))
            }
        }
        var merged = combine(local: local, remote: remote, takingFromRemote: takeRemote)
        let stamps = [local.lastModified, remote.lastModified].compactMap { $0 }
        merged.set("LAST-MODIFIED", line: "LAST-MODIFIED:" + CalendarInstant.compact(stamps.max() ?? now))
        merged.set("DTSTAMP", line: "DTSTAMP:" + CalendarInstant.compact(now))
        let sequence = [local, remote].compactMap { $0.first("SEQUENCE").flatMap { Int($0.value) } }.max()
        if let sequence { merged.set("SEQUENCE", line: "SEQUENCE:\(sequence)") }
        for index in conflicts.indices {
            // todod holds at most `maximumNotes` notes an item: a note past
            // them would make todod refuse the to-do, and every round fail.
            // The conflict is still kept in `sync status`.
            if merged.noteCount < maximumNotes {
                merged.addNote(conflicts[index].note, at: now)
            } else {
                conflicts[index].note += " (not added to the to-do: it holds \(maximumNotes) notes, as many as todod keeps)"
            }
        }
        return Result(todo: merged, conflicts: conflicts, fromRemote: takeRemote.sorted(), fromLocal: fromLocal)
    }

    /// `local` with the fields `fromRemote` as `remote` has them: each in
    /// the place its first property had, the remote's fields the list has
    /// none of at the end.
    private static func combine(local: TodoComponent, remote: TodoComponent, takingFromRemote fromRemote: Set<String>) -> TodoComponent {
        var properties: [TodoComponent.Property] = []
        var placed: Set<String> = []
        for property in local.properties {
            guard let field = SyncField.of(property.name), fromRemote.contains(field) else {
                properties.append(property)
                continue
            }
            if placed.insert(field).inserted { properties += remote.properties.filter { SyncField.of($0.name) == field } }
        }
        // In the remote's order: a Set's order differs from run to run.
        for field in SyncField.fields(of: remote)
        where fromRemote.contains(field) && !placed.contains(field) && !field.hasPrefix("BEGIN:") {
            properties += remote.properties.filter { SyncField.of($0.name) == field }
        }
        var components = local.components.filter { !fromRemote.contains(SyncField.ofComponent($0)) }
        components += remote.components.filter { fromRemote.contains(SyncField.ofComponent($0)) }
        return TodoComponent(properties: properties, components: components)
    }
}

extension TodoComponent {
    /// How many notes todod reads from it: the lines of its `DESCRIPTION`
    /// with text.
    var noteCount: Int {
        guard let description = first("DESCRIPTION") else { return 0 }
        return ContentLine.unescaped(description.value).split(whereSeparator: \.isNewline)
            .count { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Adds a note as todod writes one: a line of `DESCRIPTION` for every
    /// calendar, and an `X-TODOD-NOTE` dated `date` for todod.
    public mutating func addNote(_ text: String, at date: Date) {
        let single = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        let description = first("DESCRIPTION").map { ContentLine.unescaped($0.value) } ?? ""
        let joined = description.isEmpty ? single : description + "\n" + single
        set("DESCRIPTION", line: "DESCRIPTION:" + ContentLine.escaped(joined))
        let dated = "X-TODOD-NOTE;X-ADDED=\(CalendarInstant.compact(date)):" + ContentLine.escaped(single)
        guard let line = try? ContentLine.parse(dated).first else { return }
        let after = properties.lastIndex { $0.name == "X-TODOD-NOTE" || $0.name == "DESCRIPTION" } ?? properties.endIndex - 1
        properties.insert(Property(line), at: after + 1)
    }
}
