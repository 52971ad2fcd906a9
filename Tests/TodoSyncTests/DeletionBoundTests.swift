import Testing

@testable import TodoSync

/// A round may delete unasked up to a fifth of the to-dos synced, or
/// fewer than ten whatever the share: a person deleting a few is never
/// asked; a list or a collection emptied by accident always is.
@Suite struct DeletionBoundTests {
    @Test(arguments: [
        (deleting: 9, of: 9, held: false), (deleting: 10, of: 50, held: false), (deleting: 10, of: 49, held: true),
        (deleting: 11, of: 12, held: true), (deleting: 0, of: 0, held: false), (deleting: 400, of: 2000, held: false),
        (deleting: 401, of: 2000, held: true),
    ])
    func theBound(_ case_: (deleting: Int, of: Int, held: Bool)) {
        let held = DeletionBound.held(deleting: case_.deleting, of: case_.of, side: "on the server")
        #expect((held != nil) == case_.held, "\(case_)")
        if let held { #expect(held.description.contains("todoctl sync now --allow-deletions")) }
    }
}
