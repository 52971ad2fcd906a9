/// The undo and redo stacks.
///
/// Recording a new step clears the redo stack (the usual rule: after a new
/// edit there is nothing to redo). Only the newest `limit` steps are kept.
public struct UndoHistory: Hashable, Sendable {
    public static let limit = 100

    /// Oldest first; the last one is undone next.
    public private(set) var undoSteps: [UndoStep]
    /// Oldest first; the last one is redone next.
    public private(set) var redoSteps: [UndoStep]

    public init(undoSteps: [UndoStep] = [], redoSteps: [UndoStep] = []) {
        self.undoSteps = Array(undoSteps.suffix(Self.limit))
        self.redoSteps = Array(redoSteps.suffix(Self.limit))
    }

    public var nextUndo: UndoStep? { undoSteps.last }
    public var nextRedo: UndoStep? { redoSteps.last }

    public mutating func record(_ step: UndoStep) {
        undoSteps.append(step)
        if undoSteps.count > Self.limit { undoSteps.removeFirst(undoSteps.count - Self.limit) }
        redoSteps.removeAll()
    }

    /// Moves the newest step to the redo stack and returns what undoing it writes.
    public mutating func undo() -> UndoStep? {
        guard let step = undoSteps.popLast() else { return nil }
        redoSteps.append(step)
        return step.inverse
    }

    /// Moves the newest undone step back and returns what redoing it writes.
    public mutating func redo() -> UndoStep? {
        guard let step = redoSteps.popLast() else { return nil }
        undoSteps.append(step)
        return step
    }
}
