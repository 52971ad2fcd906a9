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

    /// What one change of the history did, so that it can be taken back
    /// (when the write that carried it failed) without keeping a copy of
    /// both stacks: copying them on every edit cost more than the edit.
    public enum Move: Sendable {
        case recorded(droppedOldest: UndoStep?, clearedRedo: [UndoStep])
        case undone
        case redone
    }

    @discardableResult
    public mutating func record(_ step: UndoStep) -> Move {
        undoSteps.append(step)
        let dropped = undoSteps.count > Self.limit ? undoSteps.removeFirst() : nil
        var cleared: [UndoStep] = []
        swap(&cleared, &redoSteps)
        return .recorded(droppedOldest: dropped, clearedRedo: cleared)
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

    /// Takes back `move`, the newest move not yet taken back.
    public mutating func revert(_ move: Move) {
        switch move {
        case .recorded(let dropped, let cleared):
            undoSteps.removeLast()
            if let dropped { undoSteps.insert(dropped, at: 0) }
            redoSteps = cleared
        case .undone:
            if let step = redoSteps.popLast() { undoSteps.append(step) }
        case .redone:
            if let step = undoSteps.popLast() { redoSteps.append(step) }
        }
    }
}
