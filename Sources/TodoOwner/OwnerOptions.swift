import Foundation
import TodoModel
import TodoViewModels

/// What the owner is started with, from todod.conf and the command line.
public struct OwnerOptions: Sendable {
    public var reminderAge: TimeInterval = 86_400
    /// Whether and when reminders belong on the desktop (todod.conf).
    public var desktop = DesktopReminderSettings()
    /// How long before its due time an item raises a "due soon" reminder; 0: never.
    public var dueSoonLead: TimeInterval = 0
    /// The declared fields: built in, and todod.conf's.
    public var fields = FieldCatalog.builtIn
    /// How many transactions the resume history holds at most.
    public var historyRevisions = 1000
    /// How many bytes of change sets (in wire form) it holds at most.
    public var historyBytes = 4 << 20
    public init() {}
}
