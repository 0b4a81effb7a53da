/**
 * Keypad tabs of one race side by side: each tab writes only its own queue, and queues of tabs that have
 * closed are adopted by a tab still open, so two tabs entering offline never overwrite each other and a
 * closed tab's entries are still sent.
 *
 * With Web Locks, a tab holds `startline:keypad-tab:{raceId}:{tabId}` while open (the browser releases it
 * when the tab closes or crashes). A tab touches its own queue only while holding its lock, and adopts
 * another's only while holding that tab's lock, so the two never race.
 *
 * Without Web Locks (older Safari, pages not served over https), a tab beats a heartbeat into localStorage
 * and says it is gone on pagehide; a queue whose tab stopped beating is adopted under a short localStorage
 * lease (write, wait, check). That is not a true lock: a tab taken for closed while it was only asleep may
 * lose its queue key, so every tab rewrites its own queue when it sees it deleted (storage event, or its
 * next tick). Entries can then be in two queues and are sent twice, which the server counts as duplicates.
 */
import {
  adoptQueue,
  claimLease,
  forgetGoneTabs,
  holdsLease,
  isGone,
  markAlive,
  markGone,
  otherQueues,
  releaseLease,
  tabQueueKey,
  writeQueue,
  type KeypadItem,
  type StorageLike,
} from "./keypad-store";

/** The part of navigator.locks the keypad uses. */
export interface LockManagerLike {
  request(name: string, options: { ifAvailable: true }, callback: (lock: unknown) => Promise<void> | void): Promise<unknown>;
}

export interface KeypadTabDeps {
  storage: StorageLike;
  /** The tab's sessionStorage, keeping its id across reloads; null where it is blocked. */
  session: StorageLike | null;
  locks: LockManagerLike | null;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  newId: () => string;
}

export interface KeypadTab {
  readonly tabId: string;
  /** This tab's queue key. */
  readonly key: string;
  readonly mode: "locks" | "heartbeat";
  /**
   * Adopts the queues of closed tabs and of earlier versions. `own` is read and `commit` given the merged
   * queue (already written) in one synchronous step, so an entry added meanwhile is not lost.
   */
  adoptOrphans(own: () => readonly KeypadItem[], commit: (merged: KeypadItem[]) => void): Promise<void>;
  /** Periodic duty: the heartbeat (without Web Locks) and rewriting this tab's queue if another tab deleted it. */
  tick(own: readonly KeypadItem[]): void;
  /** The page is being hidden for good or put in the back-forward cache. */
  hide(): void;
  /** Lets the queue go: the lock is released, or the heartbeat removed. */
  leave(): void;
}

const TAB_ID_KEY = "startline:keypad-tab";
/** Wait between writing a lease claim and checking it is still ours (storage events cross tabs within a few ms). */
export const LEASE_SETTLE_MS = 150;
/** Ids tried before giving up on Web Locks (each failure means another tab holds that id's lock). */
const LOCK_TRIES = 5;

export const tabLockName = (raceId: string, tabId: string) => `startline:keypad-tab:${raceId}:${tabId}`;
const legacyLockName = (raceId: string) => `startline:keypad-legacy:${raceId}`;

/** Joins the race's keypad tabs: this tab's id and the means to keep its queue and adopt others'. */
export async function joinKeypadTabs(raceId: string, deps: KeypadTabDeps): Promise<KeypadTab> {
  if (deps.locks) {
    for (let i = 0; i < LOCK_TRIES; i++) {
      const tabId = sessionTabId(deps, i > 0);
      const held = await holdLock(deps.locks, tabLockName(raceId, tabId));
      if (held === "unsupported") break;
      // Held elsewhere: a duplicated tab copied this one's sessionStorage, or another tab is adopting this queue right now.
      if (held) return lockedTab(raceId, tabId, held, deps, deps.locks);
    }
  }
  // A fresh id per page: without a lock, a duplicated tab could not tell its id was taken.
  return heartbeatTab(raceId, deps.newId(), deps);
}

function sessionTabId(deps: KeypadTabDeps, fresh: boolean): string {
  let tabId: string | null = null;
  try {
    tabId = fresh ? null : (deps.session?.getItem(TAB_ID_KEY) ?? null);
  } catch {
    tabId = null;
  }
  if (tabId && /^[\w-]{1,64}$/.test(tabId)) return tabId;
  tabId = deps.newId();
  try {
    deps.session?.setItem(TAB_ID_KEY, tabId);
  } catch {
    // Without sessionStorage the id lasts this page only; a reload's queue is adopted as a closed tab's.
  }
  return tabId;
}

/** Takes a lock if free and holds it until the returned function is called; null if another holds it. */
function holdLock(locks: LockManagerLike, name: string): Promise<(() => void) | null | "unsupported"> {
  return new Promise((resolve) => {
    try {
      locks
        .request(name, { ifAvailable: true }, (lock) => {
          if (!lock) {
            resolve(null);
            return;
          }
          return new Promise<void>((release) => resolve(() => release()));
        })
        .catch(() => resolve("unsupported"));
    } catch {
      resolve("unsupported");
    }
  });
}

/** Runs `work` holding the lock `name` if it is free; false if another holds it. */
async function withLockIfFree(locks: LockManagerLike, name: string, work: () => void): Promise<boolean> {
  let ran = false;
  try {
    await locks.request(name, { ifAvailable: true }, (lock) => {
      if (!lock) return;
      work();
      ran = true;
    });
  } catch {
    return false;
  }
  return ran;
}

/** Rewrites this tab's queue if it is missing while entries are held (another tab took it for closed). */
function repair(storage: StorageLike, key: string, own: readonly KeypadItem[]): void {
  if (own.length > 0 && storage.getItem(key) === null) writeQueue(storage, key, own);
}

function adoptInto(storage: StorageLike, fromKey: string, ownKey: string, own: () => readonly KeypadItem[], commit: (merged: KeypadItem[]) => void): void {
  const merged = adoptQueue(storage, fromKey, ownKey, own());
  if (merged) commit(merged);
}

function lockedTab(raceId: string, tabId: string, release: () => void, deps: KeypadTabDeps, locks: LockManagerLike): KeypadTab {
  const key = tabQueueKey(raceId, tabId);
  return {
    tabId,
    key,
    mode: "locks",
    async adoptOrphans(own, commit) {
      for (const other of otherQueues(deps.storage, raceId, tabId)) {
        // Free lock = closed tab; holding it keeps that tab, should it reopen now, off its queue while it moves.
        await withLockIfFree(locks, other.tabId === null ? legacyLockName(raceId) : tabLockName(raceId, other.tabId), () =>
          adoptInto(deps.storage, other.key, key, own, commit),
        );
      }
    },
    tick: (own) => repair(deps.storage, key, own),
    hide: () => {},
    leave: release,
  };
}

function heartbeatTab(raceId: string, tabId: string, deps: KeypadTabDeps): KeypadTab {
  const key = tabQueueKey(raceId, tabId);
  const { storage } = deps;
  markAlive(storage, raceId, tabId, deps.now());
  return {
    tabId,
    key,
    mode: "heartbeat",
    async adoptOrphans(own, commit) {
      forgetGoneTabs(storage, raceId, deps.now());
      for (const other of otherQueues(storage, raceId, tabId)) {
        if (other.tabId !== null && !isGone(storage, raceId, other.tabId, deps.now())) continue;
        const target = other.tabId ?? "legacy";
        if (!claimLease(storage, raceId, target, tabId, deps.now())) continue;
        await deps.sleep(LEASE_SETTLE_MS);
        // A rival's claim written meanwhile, or the tab beating again (it was only asleep), calls it off.
        const stillOrphan = other.tabId === null || isGone(storage, raceId, other.tabId, deps.now());
        if (holdsLease(storage, raceId, target, tabId, deps.now()) && stillOrphan) adoptInto(storage, other.key, key, own, commit);
        releaseLease(storage, raceId, target, tabId);
      }
    },
    tick(own) {
      markAlive(storage, raceId, tabId, deps.now());
      repair(storage, key, own);
    },
    hide: () => markGone(storage, raceId, tabId),
    leave: () => markGone(storage, raceId, tabId),
  };
}
