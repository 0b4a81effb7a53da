/**
 * The keypad's outbox: every entry is kept in localStorage until the timing API acknowledges it, and
 * pending ones are retried (a phone at the finish line loses its connection often). Each entry carries its
 * own key, so a retry of an entry that did arrive is recognised as a duplicate and counted once. Each tab
 * keeps its own queue, and an open tab adopts the queues of closed ones (keypad-tabs.ts), so two tabs
 * entering offline never overwrite each other's entries.
 */
import { useCallback, useEffect, useRef, useState } from "react";
// zod/mini: this runs in the browser (schema/wire/manual-entry.ts says why).
import * as z from "zod/mini";
import type { ManualEntry } from "../../schema/wire/timing-api";
import { mergeQueues, readQueue, trimQueue, writeQueue, type KeypadItem } from "./keypad-store";
import { joinKeypadTabs, type KeypadTab, type KeypadTabDeps, type LockManagerLike } from "./keypad-tabs";

export type { KeypadItem, KeypadState } from "./keypad-store";

const receiptSchema = z.object({ accepted: z.number(), duplicates: z.number(), unknown_bibs: z.array(z.string()) });
const errorSchema = z.object({ error: z.string(), message: z.optional(z.string()) });

/** Entries sent per request; the timing API takes at most 200. */
const BATCH = 200;
/** Pending entries are retried, and closed tabs' queues looked for, this often. */
const RETRY_MS = 5_000;

/** What the keypad says when the timing API answers 401 or 403; a serverbox's web keypad is paired, not signed in. */
export interface KeypadQueueTexts {
  unauthorized: string;
  forbidden: string;
}

const PLATFORM_TEXTS: KeypadQueueTexts = {
  unauthorized: "You are signed out: sign in again in another tab; the entries are kept and sent then.",
  forbidden: "Your role may not time this race; the entries are kept on this device.",
};

/**
 * A random UUID (v4). crypto.randomUUID exists only in secure contexts, and a serverbox's web keypad is served
 * over plain http on the venue's network (decision 0084); getRandomValues is there in every context.
 */
export function randomId(source: Pick<Crypto, "getRandomValues"> & { randomUUID?: () => string } = crypto): string {
  if (typeof source.randomUUID === "function") return source.randomUUID();
  const bytes = source.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function newEntryKey(): string {
  return randomId();
}

function browserTabDeps(): KeypadTabDeps {
  let session: Storage | null = null;
  try {
    session = sessionStorage;
  } catch {
    // Blocked (some privacy modes): the tab id then lasts one page.
  }
  // Missing in older browsers and outside secure contexts, whatever the DOM types say.
  const locks: LockManagerLike | undefined = navigator.locks;
  return {
    storage: localStorage,
    session,
    locks: locks && typeof locks.request === "function" ? locks : null,
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    newId: () => randomId(),
  };
}

export function useKeypadQueue(raceId: string, texts: KeypadQueueTexts = PLATFORM_TEXTS) {
  const [items, setItems] = useState<KeypadItem[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const current = useRef<KeypadItem[]>([]);
  // This tab's queue among the race's keypad tabs; until it is known (its lock is being taken) entries wait in memory.
  const tab = useRef<KeypadTab | null>(null);
  const sending = useRef(false);
  // After the API refuses a batch (400), entries go one by one so only the bad one is set aside.
  const oneByOne = useRef(false);

  const show = useCallback((next: KeypadItem[]) => {
    current.current = next;
    setItems(next);
  }, []);

  const update = useCallback(
    (change: (items: KeypadItem[]) => KeypadItem[]) => {
      const next = trimQueue(change(current.current));
      // A refused write (storage full or blocked) still leaves the entries to go out from memory.
      if (tab.current) writeQueue(localStorage, tab.current.key, next);
      show(next);
    },
    [show],
  );

  const flush = useCallback(async (): Promise<void> => {
    if (sending.current) return;
    const batch = current.current.filter((i) => i.state === "pending").slice(-(oneByOne.current ? 1 : BATCH));
    if (batch.length === 0) {
      oneByOne.current = false;
      return;
    }
    sending.current = true;
    let again = false;
    try {
      const response = await fetch(`/timing-api/races/${raceId}/manual`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({ entries: batch.map((i) => i.entry) }),
      });
      const body: unknown = await response.json().catch(() => null);
      const keys = new Set(batch.map((i) => i.entry.key));
      if (response.ok) {
        const receipt = receiptSchema.safeParse(body);
        if (!receipt.success) {
          setProblem("The server gave an unexpected answer; the entries are kept and sent again.");
          return;
        }
        const unknown = new Set(receipt.data.unknown_bibs);
        update((all) => all.map((i) => (keys.has(i.entry.key) ? { ...i, state: unknown.has(i.entry.key) ? "unknown" : "sent" } : i)));
        setProblem(null);
        again = true;
      } else if (response.status === 400) {
        const message = errorSchema.safeParse(body).data?.message ?? "Refused by the server";
        if (batch.length > 1) oneByOne.current = true;
        else update((all) => all.map((i) => (keys.has(i.entry.key) ? { ...i, state: "rejected", message } : i)));
        again = true;
      } else if (response.status === 401 || response.status === 403) {
        setProblem(response.status === 401 ? texts.unauthorized : texts.forbidden);
      } else {
        setProblem(`The server answered ${response.status}; the entries are kept and sent again shortly.`);
      }
    } catch {
      setProblem("No connection: the entries are kept on this device and sent when the connection is back.");
    } finally {
      sending.current = false;
    }
    if (again) await flush();
  }, [raceId, update, texts]);

  useEffect(() => {
    let left = false;
    let joined: KeypadTab | null = null;
    const adopt = async () => {
      if (joined) await joined.adoptOrphans(() => current.current, show);
    };
    const tick = async () => {
      joined?.tick(current.current);
      await adopt();
      await flush();
    };
    void joinKeypadTabs(raceId, browserTabDeps()).then((t) => {
      if (left) {
        t.leave();
        return;
      }
      joined = t;
      tab.current = t;
      // What this tab stored before a reload, with anything entered while its lock was being taken.
      update((all) => mergeQueues(all, readQueue(localStorage, t.key).items));
      void tick();
    });
    const retry = setInterval(() => void tick(), RETRY_MS);
    const online = () => void tick();
    // Another tab took this one for closed and moved its queue: write it back at once (sent twice at worst).
    const storage = (event: StorageEvent) => {
      if (joined && event.key === joined.key && event.newValue === null) joined.tick(current.current);
    };
    const pagehide = () => joined?.hide();
    const pageshow = (event: PageTransitionEvent) => {
      if (event.persisted) void tick();
    };
    window.addEventListener("online", online);
    window.addEventListener("storage", storage);
    window.addEventListener("pagehide", pagehide);
    window.addEventListener("pageshow", pageshow);
    return () => {
      left = true;
      clearInterval(retry);
      window.removeEventListener("online", online);
      window.removeEventListener("storage", storage);
      window.removeEventListener("pagehide", pagehide);
      window.removeEventListener("pageshow", pageshow);
      joined?.leave();
      if (tab.current === joined) tab.current = null;
    };
  }, [raceId, flush, update, show]);

  const add = useCallback(
    (entry: ManualEntry, label: string) => {
      update((all) => [{ entry, label, state: "pending", at: Date.now() }, ...all]);
      void flush();
    },
    [update, flush],
  );

  return { items, problem, pending: items.filter((i) => i.state === "pending").length, add };
}
