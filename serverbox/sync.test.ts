import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CloudAnswer } from "./cloud";
import { FakeCloud } from "./fake-cloud";
import { ReadLog, type StoredRead, type SyncState } from "./store";
import { SyncLoop, type SyncIo } from "./sync";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function logWith(reads: StoredRead[]): ReadLog {
  const dir = mkdtempSync(path.join(tmpdir(), "serverbox-sync-"));
  dirs.push(dir);
  const log = new ReadLog(path.join(dir, "reads.jsonl"));
  log.append(reads);
  return log;
}

const reads = (count: number): StoredRead[] =>
  Array.from({ length: count }, (_, i) => ({
    n: i + 1,
    device: i % 3 === 0 ? "hill" : "finish",
    boot: "dev-boot",
    seq: i,
    chip: `C${i % 7}`,
    time: 1_000_000 * i,
    at: 0,
  }));

function io(saved: { state: SyncState | null }, sleeps: number[] = []): SyncIo {
  return {
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    now: () => 42,
    saveState: (state) => {
      saved.state = structuredClone(state);
    },
  };
}

const fresh = (): SyncState => ({ boot: "SB-1-abc", cursors: {}, synced: 0, accepted: 0, duplicates: 0, lastSync: null });

/** Steps until there is nothing left or the loop stops; returns the statuses. */
async function drain(loop: SyncLoop, limit = 100): Promise<string[]> {
  const statuses: string[] = [];
  for (let i = 0; i < limit; i++) {
    const status = await loop.step();
    statuses.push(status);
    if (status === "idle" || status === "stopped") break;
  }
  return statuses;
}

describe("the sync loop", () => {
  it("sends each device's reads in order, in batches, each read once", async () => {
    const log = logWith(reads(25));
    const platform = new FakeCloud();
    const saved = { state: null as SyncState | null };
    const loop = new SyncLoop(platform, "race", log, fresh(), io(saved), undefined, 4);
    const statuses = await drain(loop);
    expect(statuses.at(-1)).toBe("idle");
    expect(platform.accepted).toBe(25);
    expect(loop.synced).toBe(25);
    expect(saved.state).toMatchObject({ synced: 25, accepted: 25, duplicates: 0, lastSync: 42, cursors: { hill: 25, finish: 24 } });
  });

  it("keeps trying through refusals, 5xx and lost answers, and the platform still counts every read once", async () => {
    const log = logWith(reads(30));
    const platform = new FakeCloud(["refused", "503", null, "lost-answer", "lost-answer", null, "refused", null]);
    const saved = { state: null as SyncState | null };
    const loop = new SyncLoop(platform, "race", log, fresh(), io(saved), undefined, 5);
    const statuses = await drain(loop);
    expect(statuses.filter((s) => s === "retry")).toHaveLength(5);
    expect(loop.online).toBe(true);
    expect(platform.stored.size).toBe(30);
    expect(platform.accepted).toBe(30);
    expect(loop.synced).toBe(30);
  });

  it("resumes after a restart where its saved state says, and a batch sent but not saved is counted once", async () => {
    const all = reads(20);
    const log = logWith(all);
    const platform = new FakeCloud();
    const saved = { state: null as SyncState | null };
    const first = new SyncLoop(platform, "race", log, fresh(), io(saved), undefined, 3);
    await first.step();
    await first.step();
    const afterTwo = structuredClone(saved.state!);
    // The third batch reaches the platform, then the box dies before writing its state.
    await first.step();
    const restarted = new SyncLoop(platform, "race", log, afterTwo, io(saved), undefined, 3);
    expect(restarted.synced).toBeLessThan(20);
    await drain(restarted);
    expect(platform.stored.size).toBe(20);
    expect(platform.accepted).toBe(20);
    expect(saved.state!.duplicates).toBe(3);
    expect(restarted.synced).toBe(20);
  });

  it("stops at a refusal resending cannot fix and says what it was", async () => {
    const log = logWith(reads(3));
    const refuse = async (): Promise<CloudAnswer<never>> => ({
      kind: "http",
      status: 400,
      error: "unknown_device",
      message: "This race has no timing device with that id",
      body: {},
      retryAfterMs: null,
    });
    const platform = { postReads: refuse, postManual: refuse, postRange: refuse };
    const loop = new SyncLoop(platform, "race", log, fresh(), io({ state: null }));
    expect(await drain(loop)).toEqual(["stopped"]);
    expect(loop.error).toBe("400 unknown_device: This race has no timing device with that id");
    expect(await loop.step()).toBe("stopped");
  });

  it("waits with growing backoff while offline, then sends", async () => {
    const log = logWith(reads(2));
    const sleeps: number[] = [];
    let calls = 0;
    const platform = new FakeCloud(["refused", "refused", "refused", "refused"]);
    const loop = new SyncLoop(platform, "race", log, fresh(), {
      ...io({ state: null }),
      sleep: async (ms) => {
        sleeps.push(ms);
        // Idle after sending: stop the loop there.
        if (++calls > 6) void loop.stop();
      },
    });
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await loop.stop();
    expect(sleeps.slice(0, 4)).toEqual([500, 1000, 2000, 4000]);
    expect(platform.accepted).toBe(2);
  });

  it("pauses without an error when the platform refuses the token, for the box to pair again", async () => {
    const log = logWith(reads(2));
    const heard: number[] = [];
    const refuse = async (): Promise<CloudAnswer<never>> => ({
      kind: "http",
      status: 401,
      error: "invalid_server",
      message: "revoked",
      body: {},
      retryAfterMs: null,
    });
    const platform = { postReads: refuse, postManual: refuse, postRange: refuse };
    const loop = new SyncLoop(platform, "race", log, fresh(), { ...io({ state: null }), heard: (a) => heard.push(a.kind === "http" ? a.status : 0) });
    expect(await loop.step()).toBe("stopped");
    expect(heard).toEqual([401]);
    expect(loop.error).toBeNull();
    expect(loop.synced).toBe(0);
  });
});
