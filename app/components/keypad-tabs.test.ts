import { describe, expect, it } from "vitest";
import { memoryLocks } from "../../tests/fakes/browser/web-locks";
import { memoryStorage } from "../../tests/fakes/browser/web-storage";
import { legacyQueueKey, readQueue, TAB_GONE_MS, tabQueueKey, trimQueue, writeQueue, type KeypadItem, type StorageLike } from "./keypad-store";
import { joinKeypadTabs, tabLockName, type LockManagerLike } from "./keypad-tabs";

const RACE = "race-1";

/** One origin: its localStorage, its Web Locks (or none) and a clock. */
function origin(locks: LockManagerLike | null = memoryLocks()) {
  let ids = 0;
  let at = 1_000_000;
  const world = {
    storage: memoryStorage(),
    locks,
    now: () => at,
    advance: (ms: number) => (at += ms),
    /** A keypad tab as keypad-queue.ts drives it: entries written to its own queue at once. */
    async open(session: StorageLike = memoryStorage()) {
      const tab = await joinKeypadTabs(RACE, {
        storage: world.storage,
        session,
        locks: world.locks,
        now: world.now,
        sleep: async (ms) => void world.advance(ms),
        newId: () => `tab${++ids}`,
      });
      let own: KeypadItem[] = readQueue(world.storage, tab.key).items;
      return {
        tab,
        session,
        own: () => own,
        add(bib: number) {
          own = trimQueue([
            {
              entry: { kind: "time", key: `entry-${bib}-0000`, bib, point: "finish", time: world.advance(1) * 1000 },
              label: `Bib ${bib}`,
              state: "pending",
              at: world.now(),
            },
            ...own,
          ]);
          writeQueue(world.storage, tab.key, own);
        },
        adopt: () =>
          tab.adoptOrphans(
            () => own,
            (merged) => (own = merged),
          ),
        tick: () => tab.tick(own),
        /** The tab closes: the browser releases its lock (a moment later, as browsers do) or pagehide says it left. */
        async close() {
          tab.hide();
          tab.leave();
          await new Promise((resolve) => setTimeout(resolve, 0));
        },
      };
    },
    /** Every bib in any queue of the race still in storage. */
    storedBibs() {
      const bibs = new Set<number>();
      for (let i = 0; i < world.storage.length; i++) {
        const key = world.storage.key(i)!;
        if (key.startsWith(legacyQueueKey(RACE))) for (const item of readQueue(world.storage, key).items) bibs.add(item.entry.bib);
      }
      return [...bibs].sort((a, b) => a - b);
    },
  };
  return world;
}

const sorted = (items: readonly KeypadItem[]) => items.map((i) => i.entry.bib).sort((a, b) => a - b);

describe("keypad tabs with Web Locks", () => {
  it("two tabs entering offline keep both sets of entries, and a closed tab's are adopted by the open one", async () => {
    const world = origin();
    const a = await world.open();
    const b = await world.open();
    expect(a.tab.mode).toBe("locks");
    expect(a.tab.key).not.toBe(b.tab.key);
    a.add(1);
    b.add(2);
    a.add(3);
    b.add(4);
    expect(world.storedBibs()).toEqual([1, 2, 3, 4]);
    // While B is open its queue is its own.
    await a.adopt();
    expect(sorted(a.own())).toEqual([1, 3]);

    await b.close();
    await a.adopt();
    expect(sorted(a.own())).toEqual([1, 2, 3, 4]);
    expect(sorted(readQueue(world.storage, a.tab.key).items)).toEqual([1, 2, 3, 4]);
    expect(world.storage.getItem(b.tab.key)).toBeNull();
  });

  it("a reloaded tab keeps its id and finds the entries it had not sent", async () => {
    const world = origin();
    const session = memoryStorage();
    const first = await world.open(session);
    first.add(7);
    await first.close();
    const again = await world.open(session);
    expect(again.tab.key).toBe(first.tab.key);
    expect(sorted(again.own())).toEqual([7]);
  });

  it("a duplicated tab (its sessionStorage copied) takes an id of its own", async () => {
    const world = origin();
    const session = memoryStorage();
    const original = await world.open(session);
    const copy = memoryStorage();
    copy.setItem("startline:keypad-tab", session.getItem("startline:keypad-tab")!);
    const duplicate = await world.open(copy);
    expect(duplicate.tab.key).not.toBe(original.tab.key);
    original.add(1);
    duplicate.add(2);
    expect(world.storedBibs()).toEqual([1, 2]);
  });

  it("a tab reopening while another adopts its old queue starts a new one, and the entries move to the adopter", async () => {
    const world = origin();
    const session = memoryStorage();
    const a = await world.open();
    const b = await world.open(session);
    b.add(5);
    await b.close();
    // A holds B's lock for the adoption; B comes back in the middle of it.
    let reopened: Awaited<ReturnType<typeof world.open>> | null = null;
    await world.locks!.request(tabLockName(RACE, b.tab.tabId), { ifAvailable: true }, async () => {
      reopened = await world.open(session);
    });
    expect(reopened!.tab.key).not.toBe(b.tab.key);
    await a.adopt();
    expect(sorted(a.own())).toEqual([5]);
  });

  it("two open tabs adopting the same closed tab's queue at once lose nothing", async () => {
    const world = origin();
    const a = await world.open();
    const c = await world.open();
    const b = await world.open();
    b.add(1);
    b.add(2);
    await b.close();
    await Promise.all([a.adopt(), c.adopt()]);
    expect([...new Set([...sorted(a.own()), ...sorted(c.own())])].sort()).toEqual([1, 2]);
    expect(world.storage.getItem(b.tab.key)).toBeNull();
  });

  it("adopts the single queue an earlier version kept for every tab", async () => {
    const world = origin();
    world.storage.setItem(
      legacyQueueKey(RACE),
      JSON.stringify([{ entry: { kind: "status", key: "earlier-entry", bib: 9, status: "dns" }, label: "Bib 9 · DNS", state: "pending" }]),
    );
    const a = await world.open();
    await a.adopt();
    expect(sorted(a.own())).toEqual([9]);
    expect(world.storage.getItem(legacyQueueKey(RACE))).toBeNull();
  });

  it("falls back to heartbeats where the lock manager refuses", async () => {
    const refusing: LockManagerLike = { request: () => Promise.reject(new DOMException("denied", "SecurityError")) };
    const a = await origin(refusing).open();
    expect(a.tab.mode).toBe("heartbeat");
  });
});

describe("keypad tabs without Web Locks", () => {
  it("two tabs entering offline keep both sets of entries; a tab that left is adopted at once", async () => {
    const world = origin(null);
    const a = await world.open();
    const b = await world.open();
    expect(a.tab.mode).toBe("heartbeat");
    a.add(1);
    b.add(2);
    b.add(3);
    await a.adopt();
    expect(sorted(a.own())).toEqual([1]);
    await b.close();
    await a.adopt();
    expect(sorted(a.own())).toEqual([1, 2, 3]);
    expect(world.storage.getItem(b.tab.key)).toBeNull();
  });

  it("a tab that stopped beating (crashed) is adopted only after TAB_GONE_MS", async () => {
    const world = origin(null);
    const a = await world.open();
    const b = await world.open();
    b.add(2);
    world.advance(TAB_GONE_MS / 2);
    a.tick();
    await a.adopt();
    expect(a.own()).toEqual([]);
    world.advance(TAB_GONE_MS);
    await a.adopt();
    expect(sorted(a.own())).toEqual([2]);
  });

  it("a tab only asleep, taken for closed, writes its queue back and loses nothing", async () => {
    const world = origin(null);
    const a = await world.open();
    const b = await world.open();
    b.add(2);
    world.advance(TAB_GONE_MS + 1);
    await a.adopt();
    expect(world.storage.getItem(b.tab.key)).toBeNull();
    // B wakes: its next tick (or the storage event) puts its queue back, and it carries on.
    b.tick();
    b.add(3);
    expect(world.storedBibs()).toEqual([2, 3]);
    expect(sorted(a.own())).toEqual([2]);
    // B beats again, so A leaves its queue alone now.
    await a.adopt();
    expect(sorted(a.own())).toEqual([2]);
    expect(sorted(readQueue(world.storage, b.tab.key).items)).toEqual([2, 3]);
  });

  it("leaves a queue another tab holds the lease for", async () => {
    const world = origin(null);
    const a = await world.open();
    const b = await world.open();
    b.add(2);
    b.tab.hide();
    world.storage.setItem(`startline:keypad-lease:${RACE}:${b.tab.tabId}`, JSON.stringify({ holder: "someone", until: world.now() + 60_000 }));
    await a.adopt();
    expect(a.own()).toEqual([]);
    expect(world.storedBibs()).toEqual([2]);
  });

  it("uses a fresh id per page, and the previous page's queue is adopted once it left", async () => {
    const world = origin(null);
    const session = memoryStorage();
    const first = await world.open(session);
    first.add(4);
    await first.close();
    const again = await world.open(session);
    expect(again.tab.key).not.toBe(first.tab.key);
    await again.adopt();
    expect(sorted(again.own())).toEqual([4]);
    expect(tabQueueKey(RACE, again.tab.tabId)).toBe(again.tab.key);
  });
});
