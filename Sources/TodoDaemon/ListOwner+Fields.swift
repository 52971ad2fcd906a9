import TodoModel

extension ListOwner {
    /// Replaces the declared fields (a reloaded todod.conf): every view's
    /// query is read again and every view is sent whole. Nothing is stored.
    public func changeFields(_ fields: FieldCatalog) async {
        await run { owner in
            guard fields != owner.viewModel.fields else { return }
            let outcome = owner.viewModel.replaceFields(fields)
            _ = owner.record(outcome.changes, write: nil, applied: nil, cause: nil)
            owner.finishTurn()
        }
    }
}
