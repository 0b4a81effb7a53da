/** A change of a D1 entity's fields as the entity service writes it, handed to what follows it in the same batch. */
import type { Db } from "../../schema/d1";
import type { HistoryAuthor } from "./entity-history";

export interface FieldChange {
  db: Db;
  classname: string;
  id: string;
  changed: Readonly<Record<string, unknown>>;
  /** The row with the change applied. */
  merged: Readonly<Record<string, unknown>>;
  /** The field times the change read: what follows is written only while the row still has them (a lost race writes nothing). */
  version: string;
  author: HistoryAuthor;
}
