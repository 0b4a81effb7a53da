import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../tests/fakes/browser/web-storage";
import {
  adoptQueue,
  claimLease,
  holdsLease,
  KEEP_DONE,
  legacyQueueKey,
  mergeQueues,
  otherQueues,
  readQueue,
  releaseLease,
  tabQueueKey,
  trimQueue,
  writeQueue,
  type KeypadItem,
  type StorageLike,
} from "./keypad-store";

const RACE = "race-1";
let clock = 1_000;
const item = (bib: number, state: KeypadItem["state"] = "pending", at = ++clock): KeypadItem => ({
  entry: { kind: "time", key: `entry-${bib}-0000`, bib, point: "finish", time: at * 1000 },
  label: `Bib ${bib}`,
  state,
  at,
});
const bibs = (items: readonly KeypadItem[]) => items.map((i) => i.entry.bib);

describe("a keypad queue in storage", () => {
  it("reads back what was written, and keeps the readable entries of a damaged queue", () => {
    const storage = memoryStorage();
    writeQueue(storage, "k", [item(1), item(2)]);
    expect(bibs(readQueue(storage, "k").items)).toEqual([1, 2]);
    storage.setItem("k", JSON.stringify([item(3), { entry: { kind: "warp" }, label: "?", state: "pending" }]));
    expect(readQueue(storage, "k")).toEqual({ items: [expect.objectContaining({ label: "Bib 3" })], complete: false });
    storage.setItem("k", "{not json");
    expect(readQueue(storage, "k")).toEqual({ items: [], complete: false });
    expect(readQueue(storage, "missing")).toEqual({ items: [], complete: true });
  });

  it("reads an earlier version's entries, which carry no time of entry", () => {
    const storage = memoryStorage();
    storage.setItem(
      legacyQueueKey(RACE),
      JSON.stringify([{ entry: { kind: "status", key: "earlier-entry", bib: 9, status: "dns" }, label: "Bib 9 · DNS", state: "pending" }]),
    );
    expect(readQueue(storage, legacyQueueKey(RACE)).items).toHaveLength(1);
  });

  it("never drops a pending entry when trimming, only old acknowledged ones", () => {
    const sent = Array.from({ length: KEEP_DONE + 10 }, (_, i) => item(100 + i, "sent"));
    const trimmed = trimQueue([item(1), ...sent, item(2)]);
    expect(trimmed.filter((i) => i.state === "pending")).toHaveLength(2);
    expect(trimmed).toHaveLength(KEEP_DONE + 2);
  });

  it("merges by entry key, newest first, keeping an answer either copy got", () => {
    const a = item(1);
    const b = item(2);
    const c = item(3);
    const merged = mergeQueues([c, a], [b, { ...a, state: "sent" }]);
    expect(bibs(merged)).toEqual([3, 2, 1]);
    expect(merged.find((i) => i.entry.bib === 1)?.state).toBe("sent");
    // A pending copy does not undo an answer.
    expect(mergeQueues([{ ...a, state: "sent" }], [a])[0]?.state).toBe("sent");
  });

  it("lists the race's other queues: other tabs' and an earlier version's shared one", () => {
    const storage = memoryStorage();
    for (const key of [
      tabQueueKey(RACE, "mine"),
      tabQueueKey(RACE, "other"),
      legacyQueueKey(RACE),
      tabQueueKey("race-2", "x"),
      "startline:keypad-point:race-1",
      "startline:keypad-alive:race-1:other",
    ])
      storage.setItem(key, "[]");
    expect(otherQueues(storage, RACE, "mine")).toEqual([
      { key: tabQueueKey(RACE, "other"), tabId: "other" },
      { key: legacyQueueKey(RACE), tabId: null },
    ]);
  });

  it("adopts a queue by writing its own first and deleting the other after", () => {
    const storage = memoryStorage();
    writeQueue(storage, "theirs", [item(2)]);
    const merged = adoptQueue(storage, "theirs", "mine", [item(1)]);
    expect(bibs(merged!)).toEqual([1, 2]);
    expect(bibs(readQueue(storage, "mine").items)).toEqual([1, 2]);
    expect(storage.getItem("theirs")).toBeNull();
  });

  it("keeps the other queue when its own write is refused (storage full)", () => {
    const storage = memoryStorage();
    writeQueue(storage, "theirs", [item(2)]);
    const full: StorageLike = {
      ...storage,
      get length() {
        return storage.length;
      },
      setItem: () => {
        throw new DOMException("full", "QuotaExceededError");
      },
    };
    expect(adoptQueue(full, "theirs", "mine", [item(1)])).toBeNull();
    expect(bibs(readQueue(storage, "theirs").items)).toEqual([2]);
  });

  it("keeps a queue it could not fully read, after taking what it could", () => {
    const storage = memoryStorage();
    storage.setItem("theirs", JSON.stringify([item(2), { broken: true }]));
    expect(bibs(adoptQueue(storage, "theirs", "mine", [])!)).toEqual([2]);
    expect(storage.getItem("theirs")).not.toBeNull();
  });

  it("gives a lease to one claimer at a time, until it expires or is released", () => {
    const storage = memoryStorage();
    expect(claimLease(storage, RACE, "t", "a", 0)).toBe(true);
    expect(claimLease(storage, RACE, "t", "b", 10)).toBe(false);
    expect(holdsLease(storage, RACE, "t", "a", 10)).toBe(true);
    // Two claims written before either checked: the later one stands, and the earlier claimer backs off.
    const rival = memoryStorage();
    claimLease(rival, RACE, "t", "a", 0);
    rival.setItem("startline:keypad-lease:race-1:t", JSON.stringify({ holder: "b", until: 5000 }));
    expect(holdsLease(rival, RACE, "t", "a", 10)).toBe(false);
    releaseLease(storage, RACE, "t", "b");
    expect(holdsLease(storage, RACE, "t", "a", 10)).toBe(true);
    releaseLease(storage, RACE, "t", "a");
    expect(claimLease(storage, RACE, "t", "b", 20)).toBe(true);
    expect(claimLease(storage, RACE, "t", "a", 20 + 6000)).toBe(true);
  });
});
