/**
 * The history of a race's setup (issue 25: who, when, which field, old and new value) for what lives in its
 * RaceRoom: the timing settings and the setup documents. Rows are written inside the change's own
 * transaction, so a change and its history land together or not at all, and survive the room's eviction.
 */
import { fieldChanges } from "../../core/entity/field-changes";

/** Who made a change: the signed-in user of a page (null for the product's own writes: the demo, imports). */
export interface SetupAuthor {
  userId: string | null;
}

export interface SetupHistoryEntry {
  id: string;
  kind: string;
  docId: string;
  /** The document's name when the change was made, so a deleted course still reads as itself. */
  name: string | null;
  change: "created" | "changed" | "deleted";
  field: string;
  oldValue: unknown;
  newValue: unknown;
  userId: string | null;
  at: number;
}

type Row = {
  id: string;
  kind: string;
  doc_id: string;
  name: string | null;
  change: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  user_id: string | null;
  at: number;
};

export const SETUP_HISTORY_PAGE = 200;

const asJson = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
const fromJson = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));
const nameOf = (data: Readonly<Record<string, unknown>> | null) => (data && typeof data.name === "string" ? data.name : null);

export class SetupHistory {
  constructor(private readonly sql: SqlStorage) {}

  private insert(
    kind: string,
    docId: string,
    name: string | null,
    change: SetupHistoryEntry["change"],
    field: string,
    oldValue: unknown,
    newValue: unknown,
    author: SetupAuthor,
    at: number,
  ) {
    this.sql.exec(
      "INSERT INTO setup_history (id, kind, doc_id, name, change, field, old_value, new_value, user_id, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      crypto.randomUUID(),
      kind,
      docId,
      name,
      change,
      field,
      asJson(oldValue),
      asJson(newValue),
      author.userId,
      at,
    );
  }

  /** A create: one row with its first values; a change: one row per changed field. Call inside the write's transaction. */
  recordSave(
    kind: string,
    docId: string,
    before: Readonly<Record<string, unknown>> | null,
    after: Readonly<Record<string, unknown>>,
    author: SetupAuthor,
    at: number,
  ) {
    if (!before) return this.insert(kind, docId, nameOf(after), "created", "*", null, after, author, at);
    for (const change of fieldChanges(before, after))
      this.insert(kind, docId, nameOf(after), "changed", change.field, change.oldValue, change.newValue, author, at);
  }

  /** A delete keeps the document's last values, so what was removed can be read back. */
  recordDelete(kind: string, docId: string, last: Readonly<Record<string, unknown>>, author: SetupAuthor, at: number) {
    this.insert(kind, docId, nameOf(last), "deleted", "*", last, null, author, at);
  }

  /** Newest first; `before` pages back through a long history. */
  list(before?: { at: number; id: string }): SetupHistoryEntry[] {
    const rows = before
      ? this.sql.exec<Row>(
          "SELECT * FROM setup_history WHERE at < ? OR (at = ? AND id < ?) ORDER BY at DESC, id DESC LIMIT ?",
          before.at,
          before.at,
          before.id,
          SETUP_HISTORY_PAGE,
        )
      : this.sql.exec<Row>("SELECT * FROM setup_history ORDER BY at DESC, id DESC LIMIT ?", SETUP_HISTORY_PAGE);
    return rows.toArray().map((r) => ({
      id: r.id,
      kind: r.kind,
      docId: r.doc_id,
      name: r.name,
      change: r.change as SetupHistoryEntry["change"],
      field: r.field,
      oldValue: fromJson(r.old_value),
      newValue: fromJson(r.new_value),
      userId: r.user_id,
      at: r.at,
    }));
  }
}
