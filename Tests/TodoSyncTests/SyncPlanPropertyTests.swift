import Foundation
import TestSupport
import Testing

@testable import TodoSync

/// The sync's plan (`SyncPlan`, pure) driven through seeded interleavings
/// of everything that happens to a synced list: edits, additions and
/// deletions on both sides, a phone giving a resource a new UID, the sync
/// dying just before or just after todod applies a change, a backup of the
/// list restored, and the list started empty. The list, the server and the
/// sync's record are small models here (the real ones are driven by the
/// end-to-end tests); the plan is the real one. Whatever happens, after two
/// quiet syncs: both sides hold the same to-dos saying the same, no UID is
/// there twice, and every to-do that no person deleted is on both.
@Suite struct SyncPlanPropertyTests {
    /// The list as todod holds it: to-dos by UID, and the revision each change moves on.
    struct List {
        var todos: [String: TodoComponent] = [:]
        var revision = 0
        var identity = UUID().uuidString
        /// Changes when history is lost: a crash after a change (then the
        /// revision starts again at 0), a new list.
        var epoch = UUID().uuidString
    }

    /// A CalDAV collection: resources by href, each with an ETag.
    struct Server {
        var resources: [String: (etag: String, text: String)] = [:]
        var nextETag = 1
        mutating func put(_ href: String, _ text: String) -> String {
            nextETag += 1
            resources[href] = ("\"\(nextETag)\"", text)
            return "\"\(nextETag)\""
        }
        func todo(at href: String) -> TodoComponent? { resources[href].flatMap { try? CalendarResource(parsing: $0.text).todo } }
    }

    /// What the sync keeps: `SyncStateStore`'s records, the list and revision they are of.
    struct Record {
        var records: [String: SyncRecord] = [:]
        var list: String?
        var epoch: String?
        var revision: Int?
    }

    /// Where the sync dies in a round, if it does.
    enum Crash { case none, beforeApply, afterApply }

    struct World {
        var list = List()
        var server = Server()
        var state = Record()
        var minute = 0
        var random: SeededRandom

        mutating func pick(_ keys: some Collection<String>) -> String? { keys.sorted().randomElement(using: &random) }

        mutating func stamp() -> String {
            minute += 1
            return String(format: "20261201T%02d%02d00Z", minute / 60 % 24, minute % 60)
        }

        func todo(_ uid: String, _ summary: String, tags: [String] = [], modified: String) -> TodoComponent {
            var lines = ["BEGIN:VTODO", "UID:" + uid, "DTSTAMP:" + modified, "LAST-MODIFIED:" + modified, "SUMMARY:" + summary]
            if !tags.isEmpty { lines.append("CATEGORIES:" + tags.joined(separator: ",")) }
            return try! TodoComponent(parsing: (lines + ["END:VTODO"]).joined(separator: "\r\n") + "\r\n")
        }

        mutating func changeList(_ change: (inout [String: TodoComponent]) -> Void) {
            change(&list.todos)
            list.revision += 1
        }

        /// One round, as `SyncService` and `SyncRound` run it: the base
        /// forgotten for another list or one gone back, the server read
        /// whole, the plan, then its effects in order, stopping where
        /// `crash` says. Returns whether another round should follow.
        mutating func round(crash: Crash = .none) -> Bool {
            let forgetting = SyncPlan.forgetting(
                recorded: ("/c/", state.list, state.epoch, state.revision), known: state.records.count,
                now: ("/c/", list.identity, list.epoch, list.revision))
            if forgetting.forget { state = Record(records: [:], list: list.identity, epoch: nil, revision: nil) }
            let records = state.records
            let known = Dictionary(records.values.map { ($0.href, $0.etag) }, uniquingKeysWith: { first, _ in first })
            var remote: [String: SyncPlan.Remote] = [:]
            for (href, resource) in server.resources where known[href] != .some(resource.etag) {
                let parsed = try! CalendarResource(parsing: resource.text)
                remote[parsed.todo.uid!] = SyncPlan.Remote(href: href, etag: resource.etag, text: resource.text, resource: parsed)
            }
            let removed = Set(records.values.map(\.href)).subtracting(server.resources.keys)
            let plan = SyncPlan(
                records: records, local: list.todos, remote: remote, removedHrefs: removed, problemHrefs: [],
                hrefForUID: { "/c/\($0).ics" }, localName: "todod", now: Date(timeIntervalSince1970: Double(minute) * 60), timeZone: .gmt)
            #expect(plan.heldDeletions == nil, "no accident comes near the bound here: \(plan.heldDeletions!)")
            if crash == .beforeApply { return false }
            var again = false
            if !plan.toApply.isEmpty || !plan.complete.isEmpty || !plan.remove.isEmpty {
                changeList { todos in
                    for todo in plan.toApply { todos[todo.uid!] = todo }
                    for uid in plan.remove { todos[uid] = nil }
                }
                again = true
            }
            if crash == .afterApply { return false }
            var saved: [SyncRecord] = []
            for (uid, server) in plan.agreed {
                guard let here = list.todos[uid] else { continue }
                saved.append(.init(uid: uid, href: server.href, etag: server.etag, base: here.text, resource: server.text))
            }
            var forgotten = plan.forgotten
            for push in plan.pushes {
                guard let todo = list.todos[push.uid] else { continue }
                let current = server.resources[push.href]?.etag
                // The server's conditional write: refused (412) while its ETag is another.
                if current != push.etag {
                    again = true
                    continue
                }
                var resource = push.around ?? CalendarResource(todo: todo)
                resource.todo = todo
                let text = resource.text(productID: "-//todod//todod-sync//EN")
                saved.append(.init(uid: push.uid, href: push.href, etag: server.put(push.href, text), base: todo.text, resource: text))
            }
            for delete in plan.deletes {
                guard server.resources[delete.href]?.etag == delete.etag else { again = true; continue }
                server.resources[delete.href] = nil
                forgotten.append(delete.uid)
            }
            // `SyncStateStore.commit`: a href is one to-do's.
            for uid in forgotten { state.records[uid] = nil }
            for record in saved {
                state.records = state.records.filter { $0.value.href != record.href || $0.key == record.uid }
                state.records[record.uid] = record
            }
            if state.epoch != list.epoch || list.revision > (state.revision ?? -1) { (state.epoch, state.revision) = (list.epoch, list.revision) }
            return again
        }

        /// A sync: rounds until one leaves nothing to do.
        mutating func sync(crash: Crash = .none) {
            for index in 0..<4 {
                guard round(crash: index == 0 ? crash : .none), crash == .none else { return }
            }
        }
    }

    @Test(arguments: 0..<24 as Range<UInt64>)
    func nothingNobodyDeletedIsDeletedAndBothSidesEndEqual(seed: UInt64) throws {
        var world = World(random: SeededRandom(seed: seed))
        var made = 0
        var deleted: Set<String> = []
        var backup: List?
        var log: [String] = []

        for step in 0..<40 {
            let action = Int.random(in: 0..<12, using: &world.random)
            switch action {
            case 0, 1:
                made += 1
                let uid = "item-\(made)"
                let modified = world.stamp()
                if action == 0 {
                    let todo = world.todo(uid, "made here \(made)", modified: modified)
                    world.changeList { $0[uid] = todo }
                } else {
                    let text = CalendarResource(todo: world.todo(uid, "made on the phone \(made)", modified: modified)).text(productID: "-//Phone//EN")
                    _ = world.server.put("/c/phone-\(made).ics", text)
                }
                log.append("\(step): add \(uid) \(action == 0 ? "here" : "there")")
            case 2:
                guard let uid = world.pick(world.list.todos.keys) else { continue }
                let modified = world.stamp()
                let old = world.list.todos[uid]!
                let todo = world.todo(uid, (old.first("SUMMARY")?.value ?? "") + " h", tags: ["t\(step)"], modified: modified)
                world.changeList { $0[uid] = todo }
                log.append("\(step): edit \(uid) here")
            case 3:
                guard let href = world.pick(world.server.resources.keys), let old = world.server.todo(at: href) else { continue }
                let uid = old.uid!
                let todo = world.todo(uid, (old.first("SUMMARY")?.value ?? "") + " p", modified: world.stamp())
                _ = world.server.put(href, CalendarResource(todo: todo).text(productID: "-//Phone//EN"))
                log.append("\(step): edit \(uid) there")
            case 4:
                guard world.list.todos.count > 3, let uid = world.pick(world.list.todos.keys) else { continue }
                world.changeList { $0[uid] = nil }
                deleted.insert(uid)
                log.append("\(step): delete \(uid) here")
            case 5:
                guard world.server.resources.count > 3, let href = world.pick(world.server.resources.keys) else { continue }
                deleted.insert(world.server.todo(at: href)!.uid!)
                world.server.resources[href] = nil
                log.append("\(step): delete \(href) there")
            case 6:
                // The phone gives the resource at a href another UID: the old
                // to-do is gone from the server, as if deleted there.
                guard world.server.resources.count > 3, let href = world.pick(world.server.resources.keys), let old = world.server.todo(at: href)
                else { continue }
                made += 1
                let todo = world.todo("item-\(made)", "renamed \(made)", modified: world.stamp())
                _ = world.server.put(href, CalendarResource(todo: todo).text(productID: "-//Phone//EN"))
                deleted.insert(old.uid!)
                log.append("\(step): \(href) takes UID item-\(made) from \(old.uid!)")
            case 7:
                let crash: Crash = Bool.random(using: &world.random) ? .beforeApply : .afterApply
                world.sync(crash: crash)
                log.append("\(step): the sync dies \(crash)")
            case 8 where backup != nil:
                world.list = backup!
                log.append("\(step): the backup restored")
                // Only restored or emptied right after a whole sync: what
                // was made since is then on the server to come back.
            case 9:
                world.list = List()
                log.append("\(step): started empty")
            case 11:
                // todod killed: every change kept, the history lost.
                world.list.revision = 0
                world.list.epoch = UUID().uuidString
                log.append("\(step): todod killed")
            default:
                break
            }
            if action == 8 || action == 9 {
                world.sync()
                continue
            }
            world.sync()
            if action == 10 { backup = world.list }
        }
        world.sync()
        world.sync()

        let context: Comment = "seed \(seed):\n\(log.joined(separator: "\n"))"
        var serverUIDs: [String: Int] = [:]
        for href in world.server.resources.keys { serverUIDs[world.server.todo(at: href)!.uid!, default: 0] += 1 }
        #expect(serverUIDs.values.allSatisfy { $0 == 1 }, "a UID twice on the server, \(context)")
        #expect(Set(serverUIDs.keys) == Set(world.list.todos.keys), context)
        for href in world.server.resources.keys.sorted() {
            let there = world.server.todo(at: href)!
            guard let here = world.list.todos[there.uid!] else { continue }
            #expect(here.saysTheSame(as: there), "\(there.uid!) differs, \(context)")
        }
        for number in 1...max(made, 1) where !deleted.contains("item-\(number)") && made > 0 {
            #expect(world.list.todos["item-\(number)"] != nil, "item-\(number) lost, \(context)")
        }
    }
}
