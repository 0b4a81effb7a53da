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
];
