/**
 * A spectator that comes back after a short gap (durable/frame-history.ts) is sent the frames it missed, which
 * chain from the version it held, instead of the whole format; a shard that no longer has them all (evicted,
 * or the version is unknown) sends the snapshot as before.
 */
import { describe, expect, it } from "vitest";
import { applyRowChange } from "../../schema/wire/race-row-patch";
import type { RaceServerMessage, ResultRow } from "../../schema/wire/race-socket";
import { createTimedRace, evictShard, openRaceSocket, postReads, SECOND } from "./timing-fixtures";

const finishRead = (seq: number, chip: string, seconds: number, startMicros: number) => ({ seq, chip, time: startMicros + seconds * SECOND, channel: 2 });

/** Rows by racer id after the frames of a chain, each of which must start where the last one ended. */
function follow(held: Map<string, ResultRow>, since: string, frames: readonly RaceServerMessage[]): string {
  let version = since;
  for (const frame of frames) {
    if (frame.type !== "patch" && frame.type !== "rows") continue;
    expect(frame.from).toBe(version);
    for (const row of frame.rows) held.set(row.racerId, row);
    if (frame.type === "patch") {
      for (const change of frame.changes) {
        const before = [...held.values()].find((row) => row.h === change.h)!;
        held.set(before.racerId, applyRowChange(before, change));
      }
    }
    version = frame.version;
  }
  return version;
}

/**
 * A race with a page that stays connected (so the shard keeps forwarding; a patch page, so it builds patches)
 * and the version before three finishes.
 */
async function raceWithGap(keeperPatches: boolean) {
  const t = await createTimedRace({ racers: 3 });
  const keeper = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, patch: keeperPatches });
  const before = (await keeper.next("snapshot")).snapshot;
  for (const [i, chip] of ["C1", "C2", "C3"].entries()) {
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(i + 1, chip, 600 + i, t.startMicros)] });
    await keeper.next(keeperPatches ? "patch" : "rows");
  }
  const now = (await (await openRaceSocket(t.host, t.race.id, { formatId: t.format.id })).next("snapshot")).snapshot;
  expect(now.version).not.toBe(before.version);
  return { t, keeper, before, now };
}

describe("a spectator catching up after a gap", () => {
  it("is sent the patches it missed, not the whole format, and ends with the rows a fresh page gets", async () => {
    const { t, keeper, before, now } = await raceWithGap(true);
    const back = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, patch: true, since: before.version });
    expect((await back.next("hello")).version).toBe(now.version);
    const held = new Map(before.rows.map((row) => [row.racerId, row]));
    while (follow(new Map(held), before.version, back.received) !== now.version) await back.nth(back.received.length + 1);
    expect(back.received.some((frame) => frame.type === "snapshot")).toBe(false);
    expect(back.received.filter((frame) => frame.type === "patch").length).toBeGreaterThan(0);
    follow(held, before.version, back.received);
    expect([...held.values()].sort((a, b) => a.racerId.localeCompare(b.racerId))).toStrictEqual(
      [...now.rows].sort((a, b) => a.racerId.localeCompare(b.racerId)),
    );
    // Only patches went out while it was away; a page that takes whole rows cannot follow them, so gets the format.
    const plain = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: before.version });
    expect((await plain.next("snapshot")).snapshot.version).toBe(now.version);
    for (const s of [keeper, back, plain]) s.socket.close(1000);
  });

  it("is sent whole rows when it does not take patches, or when no patch was built while it was away", async () => {
    const { t, keeper, before, now } = await raceWithGap(false);
    const back = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: before.version });
    const held = new Map(before.rows.map((row) => [row.racerId, row]));
    while (follow(new Map(held), before.version, back.received) !== now.version) await back.nth(back.received.length + 1);
    expect(back.received.map((frame) => frame.type).filter((type) => type !== "hello")).toEqual(expect.arrayContaining(["rows"]));
    expect(back.received.some((frame) => frame.type === "snapshot" || frame.type === "patch")).toBe(false);
    const patcher = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, patch: true, since: before.version });
    while (follow(new Map(held), before.version, patcher.received) !== now.version) await patcher.nth(patcher.received.length + 1);
    expect(patcher.received.some((frame) => frame.type === "snapshot")).toBe(false);
    for (const s of [keeper, back, patcher]) s.socket.close(1000);
  });

  it("gets the snapshot from a shard that lost the frames, or for a version it never sent", async () => {
    const { t, keeper, before, now } = await raceWithGap(true);
    const unknown = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, patch: true, since: "99999" });
    expect((await unknown.next("snapshot")).snapshot.version).toBe(now.version);
    await evictShard(t.race.id, 0);
    const afterEviction = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, patch: true, since: before.version });
    expect((await afterEviction.next("snapshot")).snapshot.version).toBe(now.version);
    for (const s of [keeper, unknown, afterEviction]) s.socket.close(1000);
  });
});
