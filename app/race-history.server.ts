/**
 * The race's setup history page (issue 25): every change to its timing settings and setup documents, from
 * the RaceRoom's own history (durable/race/setup-history.ts), with the names of the people who made them.
 */
import { inArray } from "drizzle-orm";
import type { SetupHistoryEntry } from "../durable/race/setup-history";
import { users, type Db } from "../schema/d1";
import { cellText, type HistoryRow } from "./admin/entity-views";

const KIND_LABELS: Record<string, string> = {
  Settings: "Timing settings",
  Course: "Course",
  TimingPoint: "Timing point",
  TimingDevice: "Device",
  StartGroup: "Start group",
  ResultFormat: "Result format",
  ResultGroup: "Result group",
  Heat: "Heat",
  Report: "Report",
};

const WHAT: Record<SetupHistoryEntry["change"], string> = { created: "Created", changed: "Changed", deleted: "Deleted" };

/** The history as the page's table reads it: "Changed Course “10 km”", the field, before and after. */
export async function setupHistoryRows(db: Db, entries: readonly SetupHistoryEntry[]): Promise<HistoryRow[]> {
  const ids = [...new Set(entries.map((e) => e.userId).filter((id): id is string => id !== null))];
  const people = ids.length === 0 ? [] : await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, ids));
  const names = new Map(people.map((p) => [p.id, p.name || p.email]));
  return entries.map((e) => ({
    id: e.id,
    at: e.at,
    who: e.userId ? (names.get(e.userId) ?? "a former user") : "the platform",
    kind: `${WHAT[e.change]} ${KIND_LABELS[e.kind] ?? e.kind}${e.name ? ` “${e.name}”` : ""}`,
    field: e.field,
    before: e.oldValue === null ? "" : cellText("json", e.oldValue),
    after: e.newValue === null ? "" : cellText("json", e.newValue),
  }));
}
