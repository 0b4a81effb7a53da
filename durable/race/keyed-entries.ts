/**
 * The race's keyed entries for the Keyed entries page: what every keypad (a timer's, a serverbox's and its phones')
 * and the range-data device entered, newest first, each once however often it was sent, with the racer and the
 * timing point it names as the race stands now. Who keyed it stays an id here; the page names people and boxes from D1.
 */
import { racerDisplayName } from "../../core/timing/racer-name";
import { manualEntrySchema, rangeEntrySchema } from "../../schema/wire/timing-api";
import type { RaceStore } from "./store";

/** The most entries the page lists. */
export const KEYED_ENTRIES_SHOWN = 200;

export type KeyedWhat =
  | { kind: "time"; pointId: string; time: number | null; tod: string | null }
  | { kind: "status"; status: "dns" | "dnf" | "dsq" | "ok"; run: number | null }
  | { kind: "range"; shooting: number; misses: number }
  /** A stored body this version cannot read (kept as received). */
  | { kind: "unreadable" };

export interface KeyedEntry {
  key: string;
  receivedAt: number;
  bib: number | null;
  chip: string | null;
  /** The racer the bib or chip names now; null when none has it. */
  racer: { id: string; name: string } | null;
  what: KeyedWhat;
  /** A user id, `serverbox:<id>` or `serverbox:<id>/<keypad>`; null for the range-data device. */
  by: string | null;
  /** The range-data device that sent it, by its id. */
  deviceId: string | null;
}

export function keyedEntries(store: RaceStore, limit = KEYED_ENTRIES_SHOWN): KeyedEntry[] {
  const names = new Map<string, { id: string; name: string } | null>();
  const nameOf = (racerId: string | null): { id: string; name: string } | null => {
    if (racerId === null) return null;
    if (!names.has(racerId)) {
      const racer = store.racer(racerId);
      const name = racer ? racerDisplayName({ firstName: racer.data.first_name, lastName: racer.data.last_name }, false) || "(no name)" : null;
      names.set(racerId, name === null ? null : { id: racerId, name });
    }
    return names.get(racerId) ?? null;
  };
  return store.keyedEntries(limit).map((row) => {
    const body: unknown = JSON.parse(row.body);
    // Range-device entries are keyed `<device>:range:<seq>` (timing-input.ts) and have no key of their own.
    const rangeDevice = /^(.+):range:\d+$/.exec(row.key)?.[1] ?? null;
    const fromDevice = rangeDevice !== null && row.by_user === null ? rangeEntrySchema.safeParse(body) : null;
    if (fromDevice?.success) {
      const { bib, chip, shooting, misses } = fromDevice.data;
      const racerId = chip !== undefined ? store.racerIdByChip(chip) : store.racerIdByBib(bib ?? -1);
      return entry(row, bib ?? null, chip ?? null, nameOf(racerId), { kind: "range", shooting, misses }, rangeDevice);
    }
    const keyed = manualEntrySchema.safeParse(body);
    if (!keyed.success) return entry(row, row.bib >= 0 ? row.bib : null, null, null, { kind: "unreadable" }, null);
    const e = keyed.data;
    const what: KeyedWhat =
      e.kind === "time"
        ? { kind: "time", pointId: e.point, time: e.time ?? null, tod: e.tod ?? null }
        : e.kind === "status"
          ? { kind: "status", status: e.status, run: e.run ?? null }
          : { kind: "range", shooting: e.shooting, misses: e.misses };
    return entry(row, e.bib, null, nameOf(store.racerIdByBib(e.bib)), what, null);
  });
}

function entry(
  row: { key: string; received_at: number; by_user: string | null },
  bib: number | null,
  chip: string | null,
  racer: { id: string; name: string } | null,
  what: KeyedWhat,
  deviceId: string | null,
): KeyedEntry {
  return { key: row.key, receivedAt: row.received_at, bib, chip, racer, what, by: row.by_user, deviceId };
}
