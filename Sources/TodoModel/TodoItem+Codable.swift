import FoundationEssentials

/// Items are stored as JSON in undo steps. Fields added after the first
/// release may be missing from steps stored before them, and are read as
/// empty; empty fields are left out when writing, which keeps the steps of
/// plain items as small as they were.
extension TodoItem: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, isDone, createdAt, updatedAt, completedAt, due
        case tags, project, priority, notes, wait, recurrence, values, fieldChangedAt, externalID, foreign
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(TodoID.self, forKey: .id),
            title: try container.decode(String.self, forKey: .title),
            isDone: try container.decode(Bool.self, forKey: .isDone),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            updatedAt: try container.decode(Date.self, forKey: .updatedAt),
            completedAt: try container.decodeIfPresent(Date.self, forKey: .completedAt),
            due: try container.decodeIfPresent(DueDate.self, forKey: .due),
            tags: Set(try container.decodeIfPresent([String].self, forKey: .tags) ?? []),
            project: try container.decodeIfPresent(String.self, forKey: .project),
            priority: try container.decodeIfPresent(Priority.self, forKey: .priority),
            notes: try container.decodeIfPresent([TodoNote].self, forKey: .notes) ?? [],
            wait: try container.decodeIfPresent(DueDate.self, forKey: .wait),
            recurrence: try container.decodeIfPresent(Recurrence.self, forKey: .recurrence),
            values: try container.decodeIfPresent([String: FieldValue].self, forKey: .values) ?? [:],
            fieldChangedAt: try container.decodeIfPresent([ItemField: Date].self, forKey: .fieldChangedAt) ?? [:],
            externalID: try container.decodeIfPresent(String.self, forKey: .externalID),
            foreign: try container.decodeIfPresent(ForeignFields.self, forKey: .foreign) ?? ForeignFields())
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(isDone, forKey: .isDone)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(completedAt, forKey: .completedAt)
        try container.encodeIfPresent(due, forKey: .due)
        if !tags.isEmpty { try container.encode(sortedTags, forKey: .tags) }
        try container.encodeIfPresent(project, forKey: .project)
        try container.encodeIfPresent(priority, forKey: .priority)
        if !notes.isEmpty { try container.encode(notes, forKey: .notes) }
        try container.encodeIfPresent(wait, forKey: .wait)
        try container.encodeIfPresent(recurrence, forKey: .recurrence)
        if !values.isEmpty { try container.encode(values, forKey: .values) }
        if !fieldChangedAt.isEmpty { try container.encode(fieldChangedAt, forKey: .fieldChangedAt) }
        try container.encodeIfPresent(externalID, forKey: .externalID)
        if !foreign.isEmpty { try container.encode(foreign, forKey: .foreign) }
    }
}
