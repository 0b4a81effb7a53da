/**
 * The keypad outbox in localStorage, over a Storage-like interface so two "tabs" can share a fake in tests.
 *
 * Keys (per race; a tab id is kept in the tab's sessionStorage):
 * - `startline:keypad:{raceId}:{tabId}`: one tab's queue, written only by that tab (or deleted by a tab that
 *   adopted it after its owner closed);
 * - `startline:keypad:{raceId}`: the single shared queue of earlier versions, adopted like a closed tab's;
 * - `startline:keypad-alive:{raceId}:{tabId}` and `startline:keypad-lease:{raceId}:{tabId}`: the heartbeat
 *   and adoption lease used only where Web Locks are missing (keypad-tabs.ts).
 * Entries are never dropped while pending; merging is a union by entry key, so a copy in two queues is sent
 * twice at worst, and the server counts a resent key as a duplicate.
 */
// zod/mini, as the entry's schema is: this runs in the browser (schema/wire/manual-entry.ts says why).
import * as z from "zod/mini";
import { manualEntrySchema, type ManualEntry } from "../../schema/wire/manual-entry";

export type KeypadState = "pending" | "sent" | "unknown" | "rejected";

export interface KeypadItem {
  entry: ManualEntry;
  /** What the timer sees: "Bib 12 · Finish · 10:02:03.4". */
  label: string;
  state: KeypadState;
  /** Why the server refused it (state rejected). */
  message?: string;
  /** When it was entered (ms), to order queues merged from several tabs; absent in earlier versions' entries. */
  at?: number;
}

/** The subset of Web Storage the outbox uses. */
export interface StorageLike {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const itemSchema = z.object({
  entry: manualEntrySchema,
  label: z.string().check(z.maxLength(200)),
  state: z.enum(["pending", "sent", "unknown", "rejected"]),
  message: z.optional(z.string().check(z.maxLength(500))),
  at: z.optional(z.number()),
});

/** Acknowledged entries kept for the list; pending ones are never dropped. */
export const KEEP_DONE = 50;
/** A tab without Web Locks that has not beaten for this long is taken as closed (background tabs' timers are slowed to about once a minute). */
export const TAB_GONE_MS = 90_000;
/** How long an adoption lease holds another tab's queue (without Web Locks). */
export const LEASE_MS = 5_000;

const QUEUE_PREFIX = "startline:keypad:";

export const legacyQueueKey = (raceId: string) => `${QUEUE_PREFIX}${raceId}`;
export const tabQueueKey = (raceId: string, tabId: string) => `${QUEUE_PREFIX}${raceId}:${tabId}`;
const aliveKey = (raceId: string, tabId: string) => `startline:keypad-alive:${raceId}:${tabId}`;
const leaseKey = (raceId: string, target: string) => `startline:keypad-lease:${raceId}:${target}`;

export interface StoredQueue {
  items: KeypadItem[];
  /** False when something stored could not be read (corrupt, or a later version's entry): such a queue is merged but never deleted. */
  complete: boolean;
}

export function readQueue(storage: StorageLike, key: string): StoredQueue {
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch {
    return { items: [], complete: false };
  }
  if (raw === null) return { items: [], complete: true };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { items: [], complete: false };
  }
  if (!Array.isArray(json)) return { items: [], complete: false };
  // Item by item, so one unreadable entry does not cost the others.
  const items: KeypadItem[] = [];
  for (const value of json) {
    const parsed = itemSchema.safeParse(value);
    if (parsed.success) items.push(parsed.data);
  }
  return { items, complete: items.length === json.length };
}

/** False when storage refused (full or blocked): the entries then live only in memory until a later write. */
export function writeQueue(storage: StorageLike, key: string, items: readonly KeypadItem[]): boolean {
  try {
    storage.setItem(key, JSON.stringify(items));
    return true;
  } catch {
    return false;
  }
}

/** Newest first: all pending entries, then the latest acknowledged ones. */
export function trimQueue(items: readonly KeypadItem[]): KeypadItem[] {
  let done = 0;
  return items.filter((item) => item.state === "pending" || ++done <= KEEP_DONE);
}

/** Union by entry key; an entry one copy saw answered keeps the answer. Newest first (undated entries last). */
export function mergeQueues(mine: readonly KeypadItem[], theirs: readonly KeypadItem[]): KeypadItem[] {
  const byKey = new Map(mine.map((item) => [item.entry.key, item]));
  let added = false;
  for (const item of theirs) {
    const held = byKey.get(item.entry.key);
    if (held && !(held.state === "pending" && item.state !== "pending")) continue;
    byKey.set(item.entry.key, item);
    added = true;
  }
  if (!added) return [...mine];
  // Array.prototype.sort is stable: entries entered at the same moment keep their order.
  return [...byKey.values()].sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
}

/** Every other queue of the race: other tabs' (with their id) and earlier versions' shared one (id null). */
export function otherQueues(storage: StorageLike, raceId: string, ownTabId: string): { key: string; tabId: string | null }[] {
  const legacy = legacyQueueKey(raceId);
  const tabPrefix = `${legacy}:`;
  const found: { key: string; tabId: string | null }[] = [];
  for (const key of storageKeys(storage)) {
    if (key === legacy) found.push({ key, tabId: null });
    else if (key.startsWith(tabPrefix)) {
      const tabId = key.slice(tabPrefix.length);
      if (tabId !== ownTabId && tabId !== "" && !tabId.includes(":")) found.push({ key, tabId });
    }
  }
  return found;
}

/**
 * Moves the queue at `fromKey` into this tab's: merges it into `own`, writes this tab's queue, and only
 * then deletes the other (so a crash in between leaves a copy in both, never in neither). Returns the merged
 * queue, or null when there was nothing to adopt or storage refused the write (the other queue then stays).
 */
export function adoptQueue(storage: StorageLike, fromKey: string, ownKey: string, own: readonly KeypadItem[]): KeypadItem[] | null {
  const theirs = readQueue(storage, fromKey);
  const merged = trimQueue(mergeQueues(own, theirs.items));
  if (theirs.items.length > 0 && !writeQueue(storage, ownKey, merged)) return null;
  if (theirs.complete) storage.removeItem(fromKey);
  return theirs.items.length > 0 ? merged : null;
}

// ---- Without Web Locks: heartbeats and leases in localStorage ----

export function markAlive(storage: StorageLike, raceId: string, tabId: string, now: number): void {
  try {
    storage.setItem(aliveKey(raceId, tabId), String(now));
  } catch {
    // Storage full: the tab may be taken for closed, and its queue adopted: sent twice at worst.
  }
}

/** A tab leaving (pagehide) says so, so its queue is adopted at once instead of after TAB_GONE_MS. */
export function markGone(storage: StorageLike, raceId: string, tabId: string): void {
  storage.removeItem(aliveKey(raceId, tabId));
}

export function isGone(storage: StorageLike, raceId: string, tabId: string, now: number): boolean {
  const beat = Number(storage.getItem(aliveKey(raceId, tabId)));
  return !Number.isFinite(beat) || beat <= 0 || now - beat > TAB_GONE_MS;
}

/** Heartbeats of tabs long gone that left no queue behind. */
export function forgetGoneTabs(storage: StorageLike, raceId: string, now: number): void {
  const prefix = aliveKey(raceId, "");
  for (const key of storageKeys(storage)) {
    if (key.startsWith(prefix) && isGone(storage, raceId, key.slice(prefix.length), now)) storage.removeItem(key);
  }
}

interface Lease {
  holder: string;
  until: number;
}

function readLease(storage: StorageLike, key: string): Lease | null {
  try {
    const value = JSON.parse(storage.getItem(key) ?? "null") as Partial<Lease> | null;
    return value && typeof value.holder === "string" && typeof value.until === "number" ? { holder: value.holder, until: value.until } : null;
  } catch {
    return null;
  }
}

/**
 * First half of taking a lease: writes the claim unless another holder's lease is live. localStorage has no
 * compare-and-set, so the claimer waits a moment and checks with holdsLease that its claim is still there
 * (a rival claim written meanwhile wins); the lease is a courtesy that narrows races, the merge makes them harmless.
 */
export function claimLease(storage: StorageLike, raceId: string, target: string, holder: string, now: number): boolean {
  const key = leaseKey(raceId, target);
  const lease = readLease(storage, key);
  if (lease && lease.holder !== holder && lease.until > now) return false;
  try {
    storage.setItem(key, JSON.stringify({ holder, until: now + LEASE_MS } satisfies Lease));
    return true;
  } catch {
    return false;
  }
}

export function holdsLease(storage: StorageLike, raceId: string, target: string, holder: string, now: number): boolean {
  const lease = readLease(storage, leaseKey(raceId, target));
  return lease !== null && lease.holder === holder && lease.until > now;
}

export function releaseLease(storage: StorageLike, raceId: string, target: string, holder: string): void {
  const key = leaseKey(raceId, target);
  if (readLease(storage, key)?.holder === holder) storage.removeItem(key);
}

function storageKeys(storage: StorageLike): string[] {
  // Collected first: removing while walking by index would skip keys.
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key !== null) keys.push(key);
  }
  return keys;
}
