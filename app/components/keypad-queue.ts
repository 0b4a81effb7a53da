/**
 * The keypad's outbox: every entry is kept in localStorage until the timing API acknowledges it, and
 * pending ones are retried (a phone at the finish line loses its connection often). Each entry carries its
 * own key, so a retry of an entry that did arrive is recognised as a duplicate and counted once.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { z } from "zod";
import { manualEntrySchema, type ManualEntry } from "../../schema/wire/timing-api";

export type KeypadState = "pending" | "sent" | "unknown" | "rejected";

export interface KeypadItem {
  entry: ManualEntry;
  /** What the timer sees: "Bib 12 · Finish · 10:02:03.4". */
  label: string;
  state: KeypadState;
  /** Why the server refused it (state rejected). */
  message?: string;
}

const itemSchema = z.object({ entry: manualEntrySchema, label: z.string().max(200), state: z.enum(["pending", "sent", "unknown", "rejected"]), message: z.string().max(500).optional() });
const storedSchema = z.array(itemSchema).max(5000);
const receiptSchema = z.object({ accepted: z.number(), duplicates: z.number(), unknown_bibs: z.array(z.string()) });
const errorSchema = z.object({ error: z.string(), message: z.string().optional() });

/** Entries sent per request; the timing API takes at most 200. */
const BATCH = 200;
/** Acknowledged entries kept for the list; pending ones are never dropped. */
const KEEP_DONE = 50;
const RETRY_MS = 5_000;

const storageKey = (raceId: string) => `startline:keypad:${raceId}`;

function load(raceId: string): KeypadItem[] {
  try {
    const parsed = storedSchema.safeParse(JSON.parse(localStorage.getItem(storageKey(raceId)) ?? "[]"));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Newest first: all pending entries, then the latest acknowledged ones. */
function trim(items: KeypadItem[]): KeypadItem[] {
  let done = 0;
  return items.filter((item) => item.state === "pending" || ++done <= KEEP_DONE);
}

export function newEntryKey(): string {
  return crypto.randomUUID();
}

export function useKeypadQueue(raceId: string) {
  const [items, setItems] = useState<KeypadItem[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const current = useRef<KeypadItem[]>([]);
  const sending = useRef(false);
  // After the API refuses a batch (400), entries go one by one so only the bad one is set aside.
  const oneByOne = useRef(false);

  const update = useCallback(
    (change: (items: KeypadItem[]) => KeypadItem[]) => {
      const next = trim(change(current.current));
      current.current = next;
      try {
        localStorage.setItem(storageKey(raceId), JSON.stringify(next));
      } catch {
        // Storage full or blocked: the entries still go out from memory.
      }
      setItems(next);
    },
    [raceId],
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
        setProblem(response.status === 401 ? "You are signed out: sign in again in another tab; the entries are kept and sent then." : "Your role may not time this race; the entries are kept on this device.");
      } else {
        setProblem(`The server answered ${response.status}; the entries are kept and sent again shortly.`);
      }
    } catch {
      setProblem("No connection: the entries are kept on this device and sent when the connection is back.");
    } finally {
      sending.current = false;
    }
    if (again) await flush();
  }, [raceId, update]);

  useEffect(() => {
    current.current = load(raceId);
    setItems(current.current);
    void flush();
    const retry = setInterval(() => void flush(), RETRY_MS);
    const online = () => void flush();
    window.addEventListener("online", online);
    return () => {
      clearInterval(retry);
      window.removeEventListener("online", online);
    };
  }, [raceId, flush]);

  const add = useCallback(
    (entry: ManualEntry, label: string) => {
      update((all) => [{ entry, label, state: "pending" }, ...all]);
      void flush();
    },
    [update, flush],
  );

  return { items, problem, pending: items.filter((i) => i.state === "pending").length, add };
}
