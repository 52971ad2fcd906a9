/// The shared list's tables, as versioned migrations: each version's
/// statements run once, in one transaction, under an advisory lock so that
/// instances starting together migrate once (`PostgresListStore.migrate`).
///
/// One database holds one list. The items, undo history, shared views and
/// reminders are what the SQLite store keeps; `change_log` is what sharing
/// adds: every transaction, numbered, with the instance and request that
/// made it, so that an instance that missed some catches up, and
/// `list_head` holds the newest revision. Every commit takes one advisory
/// lock (`headLock`) before it reads it, which orders all of them.
enum PostgresSchema {
    /// The newest version this build knows; a database at a later one was
    /// made by a newer todod and is not opened.
    static var version: Int { migrations.count }

    /// An arbitrary constant: the advisory lock migrations take.
    static let migrationLock: Int64 = 0x746F_646F_6400_0001
    /// Another: the list's head lock (`todod_lock`, `todod_commit`).
    static let headLock: Int64 = 0x746F_646F_6400_0002
    /// The advisory lock the instance that syncs with a calendar server holds (`SyncLease`).
    static let syncLock: Int64 = 0x746F_646F_6400_0003
    /// Held shared by every running instance, on the connection it listens
    /// on, for as long as it runs: `todod migrate --force` counts its
    /// holders in `pg_locks` (whatever each calls itself in `pg_stat_activity`)
    /// and refuses to copy a list over instances that serve it.
    static let instanceLock: Int64 = 0x746F_646F_6400_0004
    /// How `pg_locks` names `instanceLock`: its high and low 32 bits.
    static let instanceLockRow = (classid: instanceLock >> 32, objid: instanceLock & 0xFFFF_FFFF)

    static let migrations: [[String]] = [
        // 1: the list.
        [
            """
            CREATE TABLE list_head (
                id integer PRIMARY KEY CHECK (id = 1),
                list_id text NOT NULL,
                epoch text NOT NULL,
                revision bigint NOT NULL,
                next_id bigint NOT NULL
            )
            """,
            "INSERT INTO list_head VALUES (1, gen_random_uuid()::text, gen_random_uuid()::text, 0, 1)",
            "CREATE TABLE item (id bigint PRIMARY KEY, item jsonb NOT NULL)",
            """
            CREATE TABLE history_step (
                seq bigserial PRIMARY KEY,
                stack text NOT NULL CHECK (stack IN ('undo', 'redo')),
                step jsonb NOT NULL
            )
            """,
            "CREATE TABLE view_setting (name text PRIMARY KEY, settings jsonb NOT NULL)",
            "CREATE TABLE fired_reminder (item_id bigint NOT NULL, condition text NOT NULL, PRIMARY KEY (item_id, condition))",
            """
            CREATE TABLE desktop_reminder (
                item_id bigint NOT NULL, condition text NOT NULL, snoozed_until bigint, dismissed boolean NOT NULL,
                PRIMARY KEY (item_id, condition)
            )
            """,
            """
            CREATE TABLE change_log (
                revision bigint PRIMARY KEY,
                instance text NOT NULL,
                cause jsonb,
                committed_at timestamptz NOT NULL DEFAULT now(),
                change jsonb NOT NULL
            )
            """,
            applyWriteFunction,
            commitFunction,
        ],
        // 2: each instance's resume record, kept on a clean stop so that its
        // clients resume by replay after a restart (`ResumeRecord`).
        [
            """
            CREATE TABLE resume_record (
                instance text PRIMARY KEY,
                epoch text NOT NULL,
                revision bigint NOT NULL,
                history jsonb NOT NULL
            )
            """
        ],
        // 3: a commit costs the server half as much. A write stores only
        // what it has (an add has no views or reminders), and emptying the
        // redo stack on every new step reads an index, not the table. And
        // the head lock: an instance that lost a race holds it, reads what
        // it missed, plans again and commits before anyone else can.
        [
            "CREATE INDEX history_step_stack ON history_step (stack, seq)",
            // Its answer changes (the largest id it stored), which replacing cannot.
            "DROP FUNCTION todod_apply_write(jsonb, bigint)",
            applyWriteFunction,
            lockFunction,
            unlockFunction,
            commitFunction,
        ],
        // 4: trimming the undo stack reads only what it deletes. It read
        // every step the stack had had since vacuum last came by, deleted
        // ones too, with the head lock held: 5 ms after 28,000 steps, on
        // every 32nd commit, and a busy list's commits slowed by half
        // within a minute. `undo_floor` is where the last trim stopped.
        [
            "ALTER TABLE list_head ADD COLUMN undo_floor bigint NOT NULL DEFAULT 0",
            applyWriteFunction,
        ],
        // 5: an instance notices that the list it follows is no longer the
        // one it holds: a backup restored under it (the revision went back,
        // or a new database with new tables), or a list copied over it
        // (`todod migrate --force`, a new epoch). Reads and the head lock
        // also answer with the list's head and identity, and a commit is
        // stored only into the list it was planned on. New functions beside
        // the old ones, which instances of the version before still call.
        // And the lists merged in (`todod migrate --merge`), so that the
        // same one is not merged twice by mistake.
        [
            identityFunction,
            readFunction,
            checkedLockFunction,
            checkedCommitFunction,
            "CREATE TABLE merged_list (list_id text PRIMARY KEY, source text NOT NULL, merged_at timestamptz NOT NULL DEFAULT now())",
        ],
    ]

    /// Which list the database holds, as one text: the list's identity and
    /// epoch, and the oids of the head table and the database. A backup
    /// restored brings back the same list and epoch, but into tables made
    /// anew (a new oid), so an instance that held the list before knows it
    /// is not the list it held, even where the revision has caught up
    /// again. A copy made with `todod migrate` has a new epoch.
    static let identityFunction = """
        CREATE FUNCTION todod_identity() RETURNS text
        LANGUAGE sql STABLE AS $$
            SELECT h.list_id || ' ' || h.epoch || ' ' || 'list_head'::regclass::oid::text || ' ' || d.oid::text
            FROM list_head h, pg_database d WHERE h.id = 1 AND d.datname = current_database()
        $$
        """

    /// The change log after `p_after` (at most `p_limit` rows), after a
    /// first row with the list's revision and identity and nothing else.
    static let readFunction = """
        CREATE FUNCTION todod_read(p_after bigint, p_limit bigint)
            RETURNS TABLE (head bigint, identity text, revision bigint, instance text, cause text, change text)
        LANGUAGE plpgsql STABLE AS $$
        BEGIN
            RETURN QUERY SELECT h.revision, todod_identity(), NULL::bigint, NULL::text, NULL::text, NULL::text
                FROM list_head h WHERE h.id = 1;
            RETURN QUERY SELECT NULL::bigint, NULL::text, l.revision, l.instance, l.cause::text, l.change::text FROM change_log l
                WHERE l.revision > p_after ORDER BY l.revision LIMIT p_limit;
        END
        $$
        """

    /// `todod_lock`, answering as `todod_read` does: the head and identity
    /// read under the lock, then the change log. (The read is a statement
    /// of its own, so its snapshot is taken once the lock is held.)
    static let checkedLockFunction = """
        CREATE FUNCTION todod_lock_read(p_after bigint, p_limit bigint)
            RETURNS TABLE (head bigint, identity text, revision bigint, instance text, cause text, change text)
        LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM * FROM todod_lock(p_after, 0);
            RETURN QUERY SELECT * FROM todod_read(p_after, p_limit);
        END
        $$
        """

    /// `todod_commit` into the list `p_identity` names only: NULL, with
    /// nothing stored (and the head lock let go of), when the database now
    /// holds another.
    static let checkedCommitFunction = """
        CREATE FUNCTION todod_commit(p_base bigint, p_instance text, p_undo_limit bigint, p_batch jsonb, p_identity text)
            RETURNS bigint
        LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock(\(headLock));
            IF todod_identity() IS DISTINCT FROM p_identity THEN
                IF current_setting('todod.holds_lock', true) = 'on' THEN
                    PERFORM todod_unlock();
                END IF;
                RETURN NULL;
            END IF;
            RETURN todod_commit(p_base, p_instance, p_undo_limit, p_batch);
        END
        $$
        """

    /// Stores one transaction's write (`StoredWrite` JSON) in the tables,
    /// and returns the largest id of an item it stores (0 if none), which
    /// the list's next id must pass. Version 1 made it, version 3 made it
    /// cheaper and version 4 trims the undo stack by a bound; all three
    /// now make this one.
    static let applyWriteFunction = """
        CREATE OR REPLACE FUNCTION todod_apply_write(w jsonb, p_undo_limit bigint) RETURNS bigint
        LANGUAGE plpgsql AS $$
        DECLARE
            c jsonb;
            h jsonb := w->'history';
            moved_seq bigint;
            new_seq bigint;
            keep_from bigint;
            largest bigint := 0;
        BEGIN
            FOR c IN SELECT jsonb_array_elements(coalesce(w->'changes', '[]'::jsonb)) LOOP
                IF jsonb_typeof(c->'after') = 'object' THEN
                    INSERT INTO item (id, item) VALUES ((c->'after'->>'id')::bigint, c->'after')
                    ON CONFLICT (id) DO UPDATE SET item = EXCLUDED.item;
                    largest := greatest(largest, (c->'after'->>'id')::bigint);
                ELSE
                    DELETE FROM item WHERE id = (c->'before'->>'id')::bigint;
                END IF;
            END LOOP;
            IF jsonb_typeof(h) = 'object' THEN
                DELETE FROM history_step WHERE stack = 'redo';
                INSERT INTO history_step (stack, step) VALUES ('undo', h->'record') RETURNING seq INTO new_seq;
                -- Now and then, not on every commit. Only the steps from the last
                -- trim's bound to the oldest kept are read: those below it are
                -- deleted, and until vacuum comes by, reading from the stack's
                -- bottom would step over each of them.
                IF new_seq % 32 = 0 THEN
                    SELECT seq INTO keep_from FROM history_step WHERE stack = 'undo'
                        ORDER BY seq DESC OFFSET greatest(p_undo_limit, 1) - 1 LIMIT 1;
                    IF keep_from IS NOT NULL THEN
                        DELETE FROM history_step WHERE stack = 'undo'
                            AND seq >= (SELECT undo_floor FROM list_head WHERE id = 1) AND seq < keep_from;
                        UPDATE list_head SET undo_floor = keep_from WHERE id = 1;
                    END IF;
                END IF;
            ELSIF h = '"undo"'::jsonb OR h = '"redo"'::jsonb THEN
                SELECT max(seq) INTO moved_seq FROM history_step
                    WHERE stack = CASE WHEN h = '"undo"'::jsonb THEN 'undo' ELSE 'redo' END;
                IF moved_seq IS NOT NULL THEN
                    INSERT INTO history_step (stack, step)
                        SELECT CASE WHEN stack = 'undo' THEN 'redo' ELSE 'undo' END, step FROM history_step WHERE seq = moved_seq;
                    DELETE FROM history_step WHERE seq = moved_seq;
                END IF;
            END IF;
            -- Each only when the write has some (a missing member counts as none).
            IF w->'views' <> '{}'::jsonb THEN
                INSERT INTO view_setting (name, settings) SELECT key, value FROM jsonb_each(w->'views')
                ON CONFLICT (name) DO UPDATE SET settings = EXCLUDED.settings;
            END IF;
            IF w->'removedViews' <> '[]'::jsonb THEN
                DELETE FROM view_setting WHERE name IN (SELECT jsonb_array_elements_text(w->'removedViews'));
            END IF;
            IF w->'fired' <> '[]'::jsonb THEN
                INSERT INTO fired_reminder (item_id, condition)
                    SELECT (r->>'itemID')::bigint, r->>'condition' FROM jsonb_array_elements(w->'fired') r
                ON CONFLICT DO NOTHING;
            END IF;
            IF w->'desktop' <> '[]'::jsonb THEN
                INSERT INTO desktop_reminder (item_id, condition, snoozed_until, dismissed)
                    SELECT (d->>'itemID')::bigint, d->>'condition', (d->>'snoozedUntil')::bigint, (d->>'dismissed')::boolean
                    FROM jsonb_array_elements(w->'desktop') d
                ON CONFLICT (item_id, condition) DO UPDATE
                    SET snoozed_until = EXCLUDED.snoozed_until, dismissed = EXCLUDED.dismissed;
            END IF;
            RETURN largest;
        END
        $$
        """

    /// Takes the head lock for the session, then returns the change log
    /// after `p_after` (at most `p_limit` rows): a statement of its own,
    /// after the lock, so it sees every commit the lock waited for. Until
    /// the session's next `todod_commit` (or `todod_unlock`), no other
    /// commit can start.
    ///
    /// A session lock, not a transaction's: the commit that follows then
    /// flushes in its own round trip, not in a COMMIT after it, and the
    /// lock is held one round trip less. A holder that stops answering (a
    /// stopped or cut-off instance) lets go all the same: while it holds
    /// the lock, the server ends the session after 5 s idle.
    static let lockFunction = """
        CREATE FUNCTION todod_lock(p_after bigint, p_limit bigint)
            RETURNS TABLE (revision bigint, instance text, cause text, change text)
        LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_advisory_lock(\(headLock));
            PERFORM set_config('todod.holds_lock', 'on', false);
            -- PostgreSQL 14 and later; before, a stopped holder is let go of
            -- when its connection closes.
            IF current_setting('server_version_num')::integer >= 140000 THEN
                PERFORM set_config('idle_session_timeout', '5s', false);
            END IF;
            RETURN QUERY SELECT l.revision, l.instance, l.cause::text, l.change::text FROM change_log l
                WHERE l.revision > p_after ORDER BY l.revision LIMIT p_limit;
        END
        $$
        """

    /// Lets go of the head lock without committing.
    static let unlockFunction = """
        CREATE FUNCTION todod_unlock() RETURNS void
        LANGUAGE plpgsql AS $$
        BEGIN
            IF current_setting('todod.holds_lock', true) = 'on' THEN
                PERFORM pg_advisory_unlock(\(headLock));
                PERFORM set_config('todod.holds_lock', 'off', false);
                IF current_setting('server_version_num')::integer >= 140000 THEN
                    PERFORM set_config('idle_session_timeout', '0', false);
                END IF;
            END IF;
        END
        $$
        """

    /// Commits a batch (`[{"cause": …, "write": StoredWrite}]`) on top of
    /// revision `base`, in one round trip. The head lock orders every
    /// commit of every instance: the batch is stored only if no other
    /// commit came after `base`; otherwise nothing is, and the answer is the
    /// list's revision as a negative number (`-1 - revision`), so the
    /// instance catches up and plans again. The NOTIFY is sent on commit and
    /// carries the new revision only: a pointer into `change_log`.
    ///
    /// Every commit first takes the head lock for its transaction: it waits
    /// while another session holds it (`todod_lock`), and holds it until it
    /// is flushed. A session that holds it for itself lets go of that hold
    /// here; the transaction's own keeps everyone out until the flush.
    /// (Version 1 made it with a lock on the head row instead; version 3
    /// makes this one.)
    static let commitFunction = """
        CREATE OR REPLACE FUNCTION todod_commit(p_base bigint, p_instance text, p_undo_limit bigint, p_batch jsonb) RETURNS bigint
        LANGUAGE plpgsql AS $$
        DECLARE
            head bigint;
            rev bigint := p_base;
            t jsonb;
            largest bigint := 0;
        BEGIN
            PERFORM pg_advisory_xact_lock(\(headLock));
            IF current_setting('todod.holds_lock', true) = 'on' THEN
                PERFORM todod_unlock();
            END IF;
            -- Read after the lock: every commit before this one is visible.
            SELECT revision INTO head FROM list_head WHERE id = 1;
            IF head <> p_base THEN
                RETURN -1 - head;
            END IF;
            FOR t IN SELECT jsonb_array_elements(p_batch) LOOP
                rev := rev + 1;
                largest := greatest(largest, todod_apply_write(t->'write', p_undo_limit));
                INSERT INTO change_log (revision, instance, cause, change)
                    VALUES (rev, p_instance, CASE WHEN jsonb_typeof(t->'cause') = 'object' THEN t->'cause' END, t->'write');
            END LOOP;
            UPDATE list_head SET revision = rev, next_id = greatest(next_id, largest + 1) WHERE id = 1;
            PERFORM pg_notify('todod', rev::text);
            RETURN rev;
        END
        $$
        """
}
