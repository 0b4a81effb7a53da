/**
 * Migrations of a RaceRoom's own SQLite storage, applied in order when the object starts.
 * Append only: a shipped step is never edited, because objects already ran it.
 */
export const raceRoomMigrations: readonly { version: number; statements: readonly string[] }[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE race_setup (
        id TEXT PRIMARY KEY NOT NULL,
        club_id TEXT NOT NULL,
        name TEXT NOT NULL,
        start_time INTEGER NOT NULL,
        timezone TEXT NOT NULL DEFAULT 'UTC',
        created_at INTEGER NOT NULL,
        field_mtimes TEXT NOT NULL DEFAULT '{}'
      )`,
    ],
  },
  {
    version: 2,
    // The catalogue fields, so the RaceRoom is the single writer of every Race field the data service shows.
    statements: [
      "ALTER TABLE race_setup ADD COLUMN site_id TEXT",
      "ALTER TABLE race_setup ADD COLUMN sport TEXT",
      "ALTER TABLE race_setup ADD COLUMN end_time INTEGER",
      "ALTER TABLE race_setup ADD COLUMN location TEXT",
      "ALTER TABLE race_setup ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public'",
    ],
  },
  {
    version: 3,
    // Timing: race settings, the race's child documents, racers, device credentials and the crossing log.
    statements: [
      "ALTER TABLE race_setup ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'",
      `CREATE TABLE race_documents (
        id TEXT PRIMARY KEY NOT NULL,
        kind TEXT NOT NULL,
        ordinal INTEGER NOT NULL,
        data TEXT NOT NULL,
        field_mtimes TEXT NOT NULL DEFAULT '{}'
      )`,
      "CREATE INDEX race_documents_kind ON race_documents (kind, ordinal)",
      `CREATE TABLE racers (
        id TEXT PRIMARY KEY NOT NULL,
        bib INTEGER,
        data TEXT NOT NULL,
        field_mtimes TEXT NOT NULL DEFAULT '{}'
      )`,
      "CREATE INDEX racers_bib ON racers (bib)",
      `CREATE TABLE racer_chips (
        chip TEXT PRIMARY KEY NOT NULL,
        racer_id TEXT NOT NULL
      )`,
      "CREATE INDEX racer_chips_racer ON racer_chips (racer_id)",
      `CREATE TABLE device_credentials (
        device_id TEXT PRIMARY KEY NOT NULL,
        secret_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL
      )`,
      // Append-only: a read is never updated except to assign it to a racer that appears later.
      `CREATE TABLE crossings (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        read_key TEXT NOT NULL UNIQUE,
        device_id TEXT NOT NULL,
        device_seq INTEGER,
        timing_point_id TEXT,
        chip TEXT,
        bib INTEGER,
        channel INTEGER,
        device_time INTEGER NOT NULL,
        time INTEGER NOT NULL,
        racer_id TEXT,
        state TEXT NOT NULL,
        received_at INTEGER NOT NULL
      )`,
      "CREATE INDEX crossings_racer ON crossings (racer_id, time)",
      "CREATE INDEX crossings_device ON crossings (device_id, device_seq)",
      "CREATE INDEX crossings_chip ON crossings (chip) WHERE racer_id IS NULL",
      "CREATE INDEX crossings_bib ON crossings (bib) WHERE racer_id IS NULL",
      // Keypad entries by their client key, so a retried send is recognised; kept as an audit trail.
      `CREATE TABLE manual_entries (
        key TEXT PRIMARY KEY NOT NULL,
        kind TEXT NOT NULL,
        bib INTEGER NOT NULL,
        body TEXT NOT NULL,
        by_user TEXT,
        received_at INTEGER NOT NULL
      )`,
    ],
  },
  {
    version: 4,
    // Live results that survive eviction (docs/decisions/0023): what spectators were last sent is kept in
    // storage, never only in memory; and a device's reads are told apart by boot as well as by sequence.
    statements: [
      "ALTER TABLE crossings ADD COLUMN device_boot TEXT",
      "CREATE INDEX crossings_device_boot ON crossings (device_id, device_boot, device_seq)",
      // Every device lookup now names the boot; one index fewer to write on each read.
      "DROP INDEX crossings_device",
      // One row: the result version last published, the log position it includes, and whether a snapshot is due.
      `CREATE TABLE live_push (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        version INTEGER NOT NULL,
        pushed_seq INTEGER NOT NULL,
        snapshot_due INTEGER NOT NULL DEFAULT 0,
        heats_version INTEGER NOT NULL DEFAULT 0,
        heats_due INTEGER NOT NULL DEFAULT 0,
        shards INTEGER NOT NULL DEFAULT 1,
        format_versions TEXT NOT NULL DEFAULT '{}'
      )`,
      "INSERT INTO live_push (id, version, pushed_seq) SELECT 1, 0, COALESCE(MAX(seq), 0) FROM crossings",
      // Racers whose row changed by an edit, a status, a clear or range data, not yet sent to spectators.
      "CREATE TABLE live_pending_racers (racer_id TEXT PRIMARY KEY NOT NULL)",
    ],
  },
  {
    version: 5,
    // The announcer screen (decision 0045): precall and on-course reads keep their racer, and are found by
    // their own small index; reads taken before that get the racer of their chip or bib now.
    statements: [
      "CREATE INDEX crossings_info ON crossings (seq) WHERE state = 'info'",
      `UPDATE crossings SET racer_id = COALESCE(
         (SELECT racer_id FROM racer_chips WHERE racer_chips.chip = crossings.chip),
         (SELECT MIN(id) FROM racers WHERE racers.bib = crossings.bib))
       WHERE state = 'info' AND racer_id IS NULL`,
    ],
  },
  {
    version: 6,
    // The history of the race's setup (issue 25): who changed which field of which document, from what to
    // what, written in the change's own transaction (durable/race/setup-history.ts).
    statements: [
      `CREATE TABLE setup_history (
        id TEXT PRIMARY KEY NOT NULL,
        kind TEXT NOT NULL,
        doc_id TEXT NOT NULL,
        name TEXT,
        change TEXT NOT NULL,
        field TEXT NOT NULL,
        old_value TEXT,
        new_value TEXT,
        user_id TEXT,
        at INTEGER NOT NULL
      )`,
      "CREATE INDEX setup_history_at ON setup_history (at, id)",
      "CREATE INDEX setup_history_doc ON setup_history (doc_id, at)",
    ],
  },
  {
    version: 7,
    // Each racer's handle: a small number, never reused in the race, that patch frames name a racer by instead
    // of its 36-character id (decision 0059). Racers there already take their rowid, unique and stable here;
    // the next one is kept with the push state, so a deleted racer's handle is not given again.
    statements: [
      "ALTER TABLE racers ADD COLUMN handle INTEGER",
      "UPDATE racers SET handle = rowid",
      "CREATE UNIQUE INDEX racers_handle ON racers (handle)",
      "ALTER TABLE live_push ADD COLUMN next_handle INTEGER NOT NULL DEFAULT 1",
      "UPDATE live_push SET next_handle = (SELECT COALESCE(MAX(handle), 0) + 1 FROM racers)",
    ],
  },
  {
    version: 8,
    // A read is told apart by its device, boot and sequence number alone (decision 0065): the unique index on
    // them replaces the text read_key and its B-tree, one of four every read was written into. A device that
    // sends no boot has '' here; a keypad entry (device "manual") keeps its client key as the boot and 0 as its
    // number. SQLite cannot drop a UNIQUE column, so the log is copied once into a table without it; seq
    // values are copied as they are (the log is append-only, so AUTOINCREMENT continues after the highest).
    statements: [
      `CREATE TABLE crossings_v8 (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        device_id TEXT NOT NULL,
        device_boot TEXT NOT NULL,
        device_seq INTEGER NOT NULL,
        timing_point_id TEXT,
        chip TEXT,
        bib INTEGER,
        channel INTEGER,
        device_time INTEGER NOT NULL,
        time INTEGER NOT NULL,
        racer_id TEXT,
        state TEXT NOT NULL,
        received_at INTEGER NOT NULL
      )`,
      `INSERT INTO crossings_v8 (seq, device_id, device_boot, device_seq, timing_point_id, chip, bib, channel, device_time, time, racer_id, state, received_at)
       SELECT seq, device_id,
         CASE WHEN device_id = 'manual' THEN substr(read_key, 8) ELSE COALESCE(device_boot, '') END,
         COALESCE(device_seq, 0), timing_point_id, chip, bib, channel, device_time, time, racer_id, state, received_at
       FROM crossings ORDER BY seq`,
      "DROP TABLE crossings",
      "ALTER TABLE crossings_v8 RENAME TO crossings",
      "CREATE UNIQUE INDEX crossings_read ON crossings (device_id, device_boot, device_seq)",
      "CREATE INDEX crossings_racer ON crossings (racer_id, time)",
      "CREATE INDEX crossings_chip ON crossings (chip) WHERE racer_id IS NULL",
      "CREATE INDEX crossings_bib ON crossings (bib) WHERE racer_id IS NULL",
      "CREATE INDEX crossings_info ON crossings (seq) WHERE state = 'info'",
    ],
  },
  {
    // The racers list searches and orders a field of any size by name (durable/race/result-views.ts): the name
    // parts are kept in columns beside the document, written with it, so the list reads no document. Reading
    // them out of 50,000 documents took 230 ms for every page.
    version: 9,
    statements: [
      "ALTER TABLE racers ADD COLUMN first_name TEXT NOT NULL DEFAULT ''",
      "ALTER TABLE racers ADD COLUMN last_name TEXT NOT NULL DEFAULT ''",
      "ALTER TABLE racers ADD COLUMN fullname TEXT NOT NULL DEFAULT ''",
      `UPDATE racers SET first_name = COALESCE(data ->> '$.first_name', ''), last_name = COALESCE(data ->> '$.last_name', ''),
         fullname = COALESCE(data ->> '$.fullname', '')`,
      // Covering: the list reads these from the index alone. The columns follow the document in each row, so
      // reading them from the table walks every document's pages. It leads with bib, as racers_bib did.
      "CREATE INDEX racers_list ON racers (bib, last_name, first_name, fullname, id)",
      "DROP INDEX racers_bib",
    ],
  },
  {
    // What the racer lists show (the start list, its PDF) is named by a revision that every write of a racer, a
    // setup document or the race's row moves, so a crowd's copies at the edge are never stale (decision 0098).
    // Triggers, not calls in each write path: a path added later moves it too. Crossings do not. A later step that
    // rebuilds one of these tables must make its triggers again (SQLite drops a table's triggers with it).
    version: 10,
    statements: [
      "CREATE TABLE list_revision (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)",
      "INSERT INTO list_revision (id, n) VALUES (1, 1)",
      ...["racers", "race_documents", "race_setup"].flatMap((table) =>
        ["INSERT", "UPDATE", "DELETE"].map(
          (event) =>
            `CREATE TRIGGER ${table}_${event.toLowerCase()}_revision AFTER ${event} ON ${table} BEGIN UPDATE list_revision SET n = n + 1 WHERE id = 1; END`,
        ),
      ),
    ],
  },
];
