import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CloudAnswer, CloudClient, PairStart, TokenGrant } from "./cloud";
import { pairBox } from "./pairing";
import { BoxStore, type Identity } from "./store";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const identity: Identity = { serial: "SB-1", name: "Finish tent", token: null, serverId: null, clubId: null, raceId: null, raceIds: [] };
const refusal = (error: string, extra: Record<string, unknown> = {}): CloudAnswer<TokenGrant> => ({
  kind: "http",
  status: 400,
  error,
  message: `said ${error}`,
  body: { error, ...extra },
  retryAfterMs: null,
});

/** The pairing endpoints, answering polls from a script; codes numbered so the test sees a new request. */
function fakeCloud(polls: CloudAnswer<TokenGrant>[], pairs: CloudAnswer<PairStart>[] = []) {
  let codes = 0;
  const cloud = {
    server: "http://platform",
    pair: async (): Promise<CloudAnswer<PairStart>> =>
      pairs.shift() ?? {
        kind: "ok",
        status: 200,
        body: {
          device_code: `dc${++codes}`,
          user_code: `BCDF-GHJ${codes}`,
          verification_uri: "http://platform/pair",
          verification_uri_complete: "x",
          expires_in: 600,
          interval: 5,
        },
      },
    pollToken: async (code: string): Promise<CloudAnswer<TokenGrant>> => {
      polled.push(code);
      return polls.shift() ?? refusal("authorization_pending");
    },
  };
  const polled: string[] = [];
  return { cloud: cloud as unknown as CloudClient, polled };
}

function io() {
  let now = 0;
  const sleeps: number[] = [];
  const lines: string[] = [];
  return {
    sleeps,
    lines,
    io: {
      log: (line: string) => lines.push(line),
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
      now: () => now,
      random: () => 0.5,
    },
  };
}

describe("pairing the box", () => {
  it("polls at the interval, slows down when told, asks again when a code expires, and keeps the token", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "serverbox-pair-"));
    dirs.push(dir);
    const store = new BoxStore(dir);
    const polls = [refusal("authorization_pending"), refusal("slow_down", { interval: 10 }), refusal("expired_token")];
    const { cloud, polled } = fakeCloud([...polls, { kind: "ok", status: 200, body: { server_token: "sbx_s.t", server_id: "s", club_id: "c" } }]);
    const run = io();
    const outcome = await pairBox(cloud, store, identity, run.io);
    expect(outcome).toMatchObject({ paired: true, identity: { token: "sbx_s.t", serverId: "s", clubId: "c" } });
    expect(run.sleeps).toEqual([5000, 5000, 10_000, 5000]);
    expect(polled).toEqual(["dc1", "dc1", "dc1", "dc2"]);
    expect(run.lines.join("\n")).toContain("enters the code BCDF-GHJ2");
    expect(store.identity()?.token).toBe("sbx_s.t");
    expect(statSync(path.join(dir, "box.json")).mode & 0o777).toBe(0o600);
  });

  it("stops with the platform's words when the pairing is cancelled", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "serverbox-pair-"));
    dirs.push(dir);
    const { cloud } = fakeCloud([refusal("access_denied")]);
    const outcome = await pairBox(cloud, new BoxStore(dir), identity, io().io);
    expect(outcome).toEqual({ paired: false, message: "said access_denied. Run the serverbox again to pair it." });
  });

  it("waits and asks again while the platform cannot be reached", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "serverbox-pair-"));
    dirs.push(dir);
    const { cloud } = fakeCloud(
      [{ kind: "ok", status: 200, body: { server_token: "sbx_s.t", server_id: "s", club_id: "c" } }],
      [{ kind: "network", message: "ECONNREFUSED" }],
    );
    const run = io();
    expect((await pairBox(cloud, new BoxStore(dir), identity, run.io)).paired).toBe(true);
    expect(run.lines[0]).toContain("Cannot reach http://platform");
    expect(run.sleeps).toEqual([500, 5000]);
  });
});
