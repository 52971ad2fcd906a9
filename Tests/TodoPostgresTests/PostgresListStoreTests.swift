import Foundation
import NIOCore
import NIOPosix
import PostgresNIO
import PostgresTestSupport
import Synchronization
import Testing
import TodoModel
import TodoStoreInterface
import TodoViewModels

@testable import TodoPostgres
import TodoViewState

/// The shared store against a real PostgreSQL (a throwaway cluster): the
/// tables it makes, commits in order, conflicts, the change log and its
/// announcements.
@Suite(.serialized) final class PostgresListStoreTests {
    let cluster: PostgresCluster

    init() throws {
        cluster = try PostgresCluster()
    }

    deinit { cluster.destroy() }

    func configuration(_ database: String) -> PostgresConnection.Configuration {
        PostgresConnection.Configuration(
            unixSocketPath: "\(cluster.socketDirectory)/.s.PGSQL.\(cluster.port)", username: cluster.user,
            password: cluster.password, database: database)
    }

    func store(_ database: String, instance: String = "laptop") throws -> PostgresListStore {
        try PostgresListStore(configuration: configuration(database), server: "test cluster", instance: instance, timeout: 30, createsList: true)
    }

    /// Two instances' stores on one new database's list.
    func laptopAndDesktop(sharing name: String) throws -> (database: String, laptop: PostgresListStore, desktop: PostgresListStore) {
        let database = try cluster.createDatabase(name)
        return (database, try store(database, instance: "laptop"), try store(database, instance: "desktop"))
    }

    /// Waits (at most 30 s) until a session of `database` has run LISTEN and
    /// is idle after it: from then on, every commit is announced to it.
    /// PostgreSQL shows each session's last statement and state
    /// (`pg_stat_activity`), set as the statement ends.
    func waitUntilListening(in database: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        let query = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND state = 'idle' AND query ILIKE 'LISTEN%'"
        while ContinuousClock.now < deadline {
            if try cluster.psql(query) != "0\n" { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    static func add(_ id: Int64, _ title: String) -> ListWrite {
        let item = TodoItem(id: TodoID(id), title: title, createdAt: Date(timeIntervalSince1970: 1_795_345_200))
        let step = UndoStep(description: "add “\(title)”", changes: [ItemChange(before: nil, after: item)])
        return ListWrite(changes: step.changes, historyChange: .record(step))
    }

    static func transaction(_ write: ListWrite, cause: String? = #"{"connection":1,"request":7}"#) -> StoredTransaction {
        StoredTransaction(revision: 0, instance: "", cause: cause, write: write)
    }

    @Test func aNewDatabaseGetsTheTablesAndAnEmptyListWithAnEpoch() throws {
        let store = try store(try cluster.createDatabase("fresh"))
        defer { store.close() }
        let loaded = try store.loadShared()
        #expect(loaded.revision == 0)
        #expect(loaded.snapshot.items.isEmpty)
        #expect(loaded.epoch.count == 36 && loaded.snapshot.listID.count == 36)
        #expect(try cluster.psql("SELECT max(version) FROM todod_schema", database: "fresh").contains("\(PostgresSchema.version)"))
        // Opening again migrates nothing: the same list, the same epoch.
        let again = try self.store("fresh", instance: "desktop")
        defer { again.close() }
        #expect(try again.loadShared().epoch == loaded.epoch)
    }

    @Test func aBatchIsStoredInOrderWithItsCausesAndReadBack() throws {
        let store = try store(try cluster.createDatabase("batch"))
        defer { store.close() }
        let outcome = try store.commit(
            [Self.transaction(Self.add(1, "buy milk")), Self.transaction(Self.add(2, "call mum"), cause: nil)], after: 0)
        #expect(outcome == .committed(revision: 2))
        let loaded = try store.loadShared()
        #expect(loaded.revision == 2)
        #expect(loaded.snapshot.items.map(\.title) == ["buy milk", "call mum"])
        #expect(loaded.snapshot.nextID == TodoID(3))
        #expect(loaded.snapshot.history.undoSteps.map(\.description) == ["add “buy milk”", "add “call mum”"])
        let log = try store.transactions(after: 0, limit: 10)
        #expect(log.map(\.revision) == [1, 2])
        #expect(log.map(\.instance) == ["laptop", "laptop"])
        #expect(log[0].cause?.contains(#""request": 7"#) == true || log[0].cause?.contains(#""request":7"#) == true)
        #expect(log[1].cause == nil)
        #expect(log[1].write.changes.first?.after?.title == "call mum")
        #expect(try store.transactions(after: 1, limit: 10).map(\.revision) == [2])
    }

    @Test func aBatchPlannedOnAnOlderRevisionIsRefusedWhole() throws {
        let (_, laptop, desktop) = try laptopAndDesktop(sharing: "conflict")
        defer { [laptop, desktop].forEach { $0.close() } }
        #expect(try laptop.commit([Self.transaction(Self.add(1, "first"))], after: 0) == .committed(revision: 1))
        // The desktop planned on revision 0 too: its add would reuse id 1.
        #expect(try desktop.commit([Self.transaction(Self.add(1, "second"))], after: 0) == .conflict(revision: 1))
        #expect(try desktop.loadShared().snapshot.items.map(\.title) == ["first"])
        #expect(try desktop.commit([Self.transaction(Self.add(2, "second"))], after: 1) == .committed(revision: 2))
        #expect(try laptop.transactions(after: 0, limit: 10).map(\.instance) == ["laptop", "desktop"])
    }

    @Test func undoRedoViewsAndRemindersAreStoredAsTheSQLiteStoreStoresThem() throws {
        let store = try store(try cluster.createDatabase("history"))
        defer { store.close() }
        var expected = ListSnapshot(listID: try store.loadShared().snapshot.listID)
        let key = ReminderKey(itemID: TodoID(1), condition: .waiting)
        let writes: [ListWrite] = [
            Self.add(1, "one"), Self.add(2, "two"),
            ListWrite(changes: Self.add(2, "two").changes.map(\.inverse), historyChange: .undo),
            ListWrite(viewSettings: ["work": ViewSettings(filter: .active, sort: try ListSort(parsing: "due,title-"), query: "+work")]),
            ListWrite(firedReminders: [key], desktopReminders: [key: DesktopReminderState(snoozedUntil: Date(timeIntervalSince1970: 1_795_400_000), dismissed: false)]),
            ListWrite(changes: Self.add(2, "two").changes, historyChange: .redo),
            ListWrite(viewSettings: ["home": ViewSettings()]), ListWrite(removedViews: ["home"]),
        ]
        var revision = 0
        for write in writes {
            #expect(try store.commit([Self.transaction(write)], after: revision) == .committed(revision: revision + 1))
            revision += 1
            expected.apply(write)
        }
        let loaded = try store.loadShared().snapshot
        #expect(loaded.items == expected.items)
        #expect(loaded.history.undoSteps.map(\.description) == expected.history.undoSteps.map(\.description))
        #expect(loaded.history.redoSteps.map(\.description) == expected.history.redoSteps.map(\.description))
        #expect(loaded.viewSettings == expected.viewSettings)
        #expect(loaded.firedReminders == expected.firedReminders)
        #expect(loaded.desktopReminders == expected.desktopReminders)
        // A step read back lazily still has its items.
        #expect(loaded.history.undoSteps.last?.changes.first?.after?.title == "two")
    }

    @Test func everyCommitIsAnnouncedToEveryWatchingInstance() async throws {
        let (database, laptop, desktop) = try laptopAndDesktop(sharing: "announce")
        defer { [laptop, desktop].forEach { $0.close() } }
        let heard = Mutex<[Int?]>([])
        desktop.watch { revision in heard.withLock { $0.append(revision) } }
        // LISTEN is set up in the background: a commit before it is not heard.
        #expect(try await waitUntilListening(in: database))
        #expect(try laptop.commit([Self.transaction(Self.add(1, "first"))], after: 0) == .committed(revision: 1))
        for _ in 1...100 where !heard.withLock({ $0.contains(1) }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(heard.withLock { $0 } == [1], "the first commit after LISTEN is heard, once")
        let before = 1
        _ = try laptop.commit([Self.transaction(Self.add(1000, "last"))], after: before)
        for _ in 1...100 where !heard.withLock({ $0.contains(before + 1) }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(heard.withLock { $0.contains(before + 1) })
    }

    @Test func aDatabaseAtVersionTwoIsMigratedAndKeepsItsList() throws {
        let database = try cluster.createDatabase("version2")
        // The tables as versions 1 and 2 leave them, with one item committed.
        var statements = ["CREATE TABLE todod_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"]
        statements += PostgresSchema.migrations[0] + PostgresSchema.migrations[1]
        statements += ["INSERT INTO todod_schema (version) VALUES (1), (2)"]
        statements += [
            #"INSERT INTO item VALUES (1, '{"id": 1, "title": "kept", "isDone": false, "createdAt": 0, "updatedAt": 0}')"#,
            "UPDATE list_head SET revision = 1, next_id = 2",
        ]
        // As the role todod connects as, which must own what it migrates.
        for statement in statements { _ = try cluster.psql("SET ROLE \(cluster.user); \(statement)", database: database) }

        let store = try store(database)
        defer { store.close() }
        #expect(try cluster.psql("SELECT max(version) FROM todod_schema", database: database).contains("\(PostgresSchema.version)"))
        #expect(try store.loadShared().snapshot.items.map(\.title) == ["kept"])
        #expect(try store.commit([Self.transaction(Self.add(5, "after"))], after: 1) == .committed(revision: 2))
        // The next id passes the largest stored, as todod_apply_write now reports it.
        #expect(try store.loadShared().snapshot.nextID == TodoID(6))
    }

    @Test func theUndoStackKeepsItsNewestStepsAndEachTrimReadsOnlyWhatItDeletes() throws {
        let database = try cluster.createDatabase("trimmed")
        let store = try store(database)
        defer { store.close() }
        let steps = UndoHistory.limit * 3 + 7
        var revision = 0
        for first in stride(from: 1, through: steps, by: 50) {
            let batch = (first..<min(first + 50, steps + 1)).map { Self.transaction(Self.add(Int64($0), "item \($0)")) }
            #expect(try store.commit(batch, after: revision) == .committed(revision: revision + batch.count))
            revision += batch.count
        }
        func number(_ query: String) throws -> Int {
            Int(try cluster.psql(query, database: database).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        // Trimmed every 32 steps, to the limit: never more than 31 over it.
        let kept = try number("SELECT count(*) FROM history_step WHERE stack = 'undo'")
        #expect(kept >= UndoHistory.limit && kept < UndoHistory.limit + 32)
        // The newest are the ones kept, and the last trim's bound is the oldest of them.
        let floor = try number("SELECT undo_floor FROM list_head")
        let oldest = try number("SELECT min(seq) FROM history_step WHERE stack = 'undo'")
        #expect(floor > 0 && floor <= oldest)
        #expect(try number("SELECT count(*) FROM history_step WHERE seq < \(floor)") == 0)
        let loaded = try store.loadShared()
        #expect(loaded.snapshot.items.count == steps)
        #expect(loaded.snapshot.history.undoSteps.count == UndoHistory.limit)
        #expect(loaded.snapshot.history.nextUndo?.description == "add “item \(steps)”")
    }

    @Test func aDatabaseFromANewerTodoIsNotOpened() throws {
        let database = try cluster.createDatabase("newer")
        try store(database).close()
        _ = try cluster.psql("INSERT INTO todod_schema (version) VALUES (99)", database: database)
        #expect(throws: PostgresListStore.SchemaTooNew.self) { try self.store(database) }
    }

    @Test func aServerThatIsGoneGivesAClearErrorAndTheStoreComesBackWithIt() throws {
        let store = try store(try cluster.createDatabase("gone"))
        defer { store.close() }
        #expect(try store.commit([Self.transaction(Self.add(1, "before"))], after: 0) == .committed(revision: 1))
        try cluster.stop()
        do {
            _ = try store.commit([Self.transaction(Self.add(2, "while gone"))], after: 1)
            Issue.record("a commit without a server succeeded")
        } catch {
            #expect(error is StoreUnavailable, "\(error)")
        }
        try cluster.start()
        #expect(try store.commit([Self.transaction(Self.add(2, "after"))], after: 1) == .committed(revision: 2))
        #expect(try store.loadShared().snapshot.items.map(\.title) == ["before", "after"])
    }

    @Test func theHeadLockBringsWhatWasMissedAndHoldsOtherCommitsBackUntilItsOwnIsIn() throws {
        let (database, laptop, desktop) = try laptopAndDesktop(sharing: "lock")
        defer { [laptop, desktop].forEach { $0.close() } }
        // Connected before the desktop takes the lock: from then on, the
        // server ends the desktop's session if it idles 5 s.
        let observer = try TestSession(configuration(database))
        #expect(try laptop.commit([Self.transaction(Self.add(1, "first"))], after: 0) == .committed(revision: 1))
        let missed = try desktop.lock(after: 0, limit: 10, on: Self.loop).wait()
        #expect(missed.map(\.revision) == [1])
        #expect(missed.first?.write.changes.first?.after?.title == "first")
        // The laptop, planned on revision 1, waits for the desktop's lock.
        // The test waits for that moment, not a while (a sleep and a psql
        // process could outlast the 5 s on a loaded machine); that its
        // commit did not go through shows in the conflict below.
        let waiting = laptop.commit([Self.transaction(Self.add(2, "laptop's"))], after: 1, on: Self.loop)
        #expect(try observer.waitUntilSessionsWaitForALock())
        #expect(try desktop.commit([Self.transaction(Self.add(2, "desktop's"))], after: 1) == .committed(revision: 2))
        // Let go, the laptop finds it came second.
        #expect(try waiting.wait() == .conflict(revision: 2))
        #expect(try laptop.loadShared().snapshot.items.map(\.title) == ["first", "desktop's"])
    }

    @Test func aHeadLockLetGoOfCommitsNothingAndStopsHoldingTheOthersBack() throws {
        let (_, laptop, desktop) = try laptopAndDesktop(sharing: "unlock")
        defer { [laptop, desktop].forEach { $0.close() } }
        #expect(try desktop.lock(after: 0, limit: 10, on: Self.loop).wait().isEmpty)
        desktop.unlock(on: Self.loop)
        #expect(try laptop.commit([Self.transaction(Self.add(1, "laptop's"))], after: 0) == .committed(revision: 1))
        #expect(try desktop.transactions(after: 0, limit: 10).map(\.instance) == ["laptop"])
    }

    @Test func aHolderThatStopsAnsweringLosesTheLockAndItsBatchIsRefused() throws {
        let (_, laptop, desktop) = try laptopAndDesktop(sharing: "stalled")
        defer { [laptop, desktop].forEach { $0.close() } }
        // The desktop takes the lock and then does nothing, as a stopped
        // instance would: the server ends its session after a few seconds.
        #expect(try desktop.lock(after: 0, limit: 10, on: Self.loop).wait().isEmpty)
        let start = ContinuousClock.now
        #expect(try laptop.commit([Self.transaction(Self.add(1, "laptop's"))], after: 0, on: Self.loop).wait() == .committed(revision: 1))
        #expect(ContinuousClock.now - start < .seconds(25))
        // Its batch, planned under the lock it lost, is refused as any stale batch.
        #expect(try desktop.commit([Self.transaction(Self.add(1, "desktop's"))], after: 0) == .conflict(revision: 1))
        #expect(try laptop.loadShared().snapshot.items.map(\.title) == ["laptop's"])
    }

    @Test func aCommitCutShortByTheServerGoingAwayIsUnavailableNotRefused() throws {
        let database = try cluster.createDatabase("terminated")
        let desktop = try store(database, instance: "desktop")
        defer { desktop.close() }
        // The desktop's commit waits for the head lock; then the server ends
        // its session, as a fast shutdown ends every session: PostgreSQL
        // says so (57P01) before the connection closes. The lock is held by
        // a session of the test's own, which the server does not end for
        // idling (an instance's hold it would, after 5 s), so however slow
        // the machine, the commit is still waiting when its session ends.
        let holder = try TestSession(configuration(database))
        try holder.holdHeadLock()
        let waiting = desktop.commit([Self.transaction(Self.add(1, "desktop's"))], after: 0, on: Self.loop)
        #expect(try holder.waitUntilSessionsWaitForALock())
        #expect(try holder.terminateSessionsWaitingForALock() == 1)
        #expect(throws: StoreUnavailable.self) { try waiting.wait() }
        try holder.releaseHeadLock()
        // The next commit connects again.
        #expect(try desktop.commit([Self.transaction(Self.add(1, "desktop's"))], after: 0) == .committed(revision: 1))
    }

    /// The loop the tests' commits run on, as an owner's would. Stores may
    /// share it: nothing on it blocks, and the tests wait off it.
    static let loop = MultiThreadedEventLoopGroup.singleton.next()
}

extension PostgresListStore {
    /// Commits on the tests' loop and waits.
    func commit(_ batch: [StoredTransaction], after base: Int) throws -> SharedCommit {
        try commit(batch, after: base, on: PostgresListStoreTests.loop).wait()
    }

    func transactions(after revision: Int, limit: Int) throws -> [StoredTransaction] {
        try transactions(after: revision, limit: limit, on: PostgresListStoreTests.loop).wait()
    }
}
