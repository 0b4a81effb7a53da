/**
 * The paged results page (decision 0044): pages ranked by the RaceRoom, their JSON twin shared at the edge per
 * version, and sockets opened with `window=1` that take frames but never the whole format, across an eviction.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { requirePublicRace } from "../../app/public-race.server";
import { openDb } from "../../schema/d1";
import { hostConfigFromEnv, resolveTenant } from "../../tenants/resolve";
import type { ResultsWindow } from "../../schema/wire/results-window";
import { WINDOW_PAGE_SIZE } from "../../schema/wire/results-window";
import { worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createTimedRace, evictRoom, evictShard, openRaceSocket, postReads, SECOND } from "./timing-fixtures";

const finishRead = (seq: number, chip: string, seconds: number, startMicros: number) => ({ seq, chip, time: startMicros + seconds * SECOND, channel: 2 });

async function page(host: string, path: string): Promise<{ status: number; cache: string | null; body: ResultsWindow | null; html: string }> {
  const response = await worker.fetch(hostRequest(host, path));
  const text = await response.text();
  const json = response.headers.get("Content-Type")?.includes("json") ? (JSON.parse(text) as ResultsWindow) : null;
  return { status: response.status, cache: response.headers.get("X-Edge-Cache"), body: json, html: text };
}

describe("the paged results page", () => {
  it("shows one page of a large field ranked on all of it, with the page's links, and searches on the server", async () => {
    const t = await createTimedRace({ racers: WINDOW_PAGE_SIZE + 12 });
    // Racer n finishes in 1000 - n s: the highest bib wins.
    const reads = t.racerIds.map((_, i) => finishRead(i + 1, `C${i + 1}`, 1000 - (i + 1), t.startMicros));
    expect((await postReads(t.host, t.race.id, t.credential.token, { reads })).status).toBe(200);
    await t.room.flushLive();

    const first = await page(t.host, `/races/${t.race.id}`);
    expect(first.status).toBe(200);
    expect(first.html.match(/<tr [^>]*data-bib=/g)).toHaveLength(WINDOW_PAGE_SIZE);
    expect(first.html).toContain(`Showing 1–${WINDOW_PAGE_SIZE} of ${WINDOW_PAGE_SIZE + 12}`);
    expect(first.html).toMatch(/data-bib="62"/);

    const second = await page(t.host, `/races/${t.race.id}/results.json?format=${t.format.id}&page=2`);
    expect(second.body?.current?.entries.map((e) => [e.rank, e.row.bib])).toEqual(Array.from({ length: 12 }, (_, i) => [51 + i, 12 - i]));
    const search = await page(t.host, `/races/${t.race.id}/results.json?format=${t.format.id}&q=Test7`);
    expect(search.body?.current?.entries.map((e) => e.row.bib).sort((a, b) => a! - b!)).toEqual([7, 70].filter((b) => b <= 62));
    expect(search.body?.current?.entries.find((e) => e.row.bib === 7)?.rank).toBe(56);
  });

  it("answers the same page after the room was evicted, and a socket in window mode gets frames, never the whole format", async () => {
    const t = await createTimedRace({ racers: 3 });
    const before = await page(t.host, `/races/${t.race.id}/results.json?format=${t.format.id}`);
    const version = before.body!.format.version;
    const spectator = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: "0-stale", window: true });
    expect((await spectator.next("hello")).version).toBe(version);

    await evictRoom(t.room);
    const after = await page(t.host, `/races/${t.race.id}/results.json?format=${t.format.id}`);
    expect(after.body).toEqual(before.body);

    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(1, "C2", 600, t.startMicros)] });
    const rows = await spectator.next("rows");
    expect(rows.from).toBe(version);
    expect(rows.rows.map((r) => r.bib)).toEqual([2]);
    const moved = await page(t.host, `/races/${t.race.id}/results.json?format=${t.format.id}&v=${rows.version}`);
    expect(moved.body?.format.version).toBe(rows.version);
    expect(moved.body?.current?.entries[0]).toMatchObject({ rank: 1, row: { bib: 2 } });

    // A setup change reshapes the format: whole-format sockets get a snapshot, paged ones only a refresh.
    const whole = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: rows.version });
    await whole.next("hello");
    expect((await t.room.saveDocument("ResultFormat", t.format.id, { name: "Results (final)" })).ok).toBe(true);
    await t.room.flushLive();
    const refresh = await spectator.next("refresh");
    expect(refresh.formatId).toBe(t.format.id);
    expect((await whole.next("snapshot")).snapshot.name).toBe("Results (final)");
    expect(spectator.received.some((f) => f.type === "snapshot")).toBe(false);
    spectator.socket.close(1000);
    whole.socket.close(1000);

    // A shard that lost its memory answers a new paged socket with the room's version, from the version alone.
    await evictShard(t.race.id, 0);
    const late = await openRaceSocket(t.host, t.race.id, { formatId: t.format.id, since: refresh.version, window: true });
    expect((await late.next("hello")).version).toBe(refresh.version);
    await postReads(t.host, t.race.id, t.credential.token, { reads: [finishRead(2, "C1", 590, t.startMicros)] });
    expect((await late.next("rows")).from).toBe(refresh.version);
    late.socket.close(1000);
  });

  it("shares a page asked for by version at the edge, and never a system format's", async () => {
    const t = await createTimedRace({ racers: 2 });
    const path = `/races/${t.race.id}/results.json?format=${t.format.id}&v=1`;
    expect((await page(t.host, path)).cache).toBe("miss");
    const again = await page(t.host, path);
    expect(again.cache).toBe("hit");
    expect(again.body?.current?.total).toBe(2);
    // Without a version nothing is shared: a plain address is always answered fresh.
    expect((await page(t.host, `/races/${t.race.id}/results.json?format=${t.format.id}`)).cache).toBeNull();

    const hidden = await t.room.saveDocument("ResultFormat", null, { name: "Timers only", is_public: false, is_unlisted: false });
    expect(hidden.ok).toBe(true);
    const id = (hidden as { value: { id: string } }).value.id;
    expect((await page(t.host, `/races/${t.race.id}/results.json?format=${id}&v=1`)).status).toBe(404);
  });

  it("refuses garbage in the address with the default page or a 404, never an error", async () => {
    const t = await createTimedRace({ racers: 2 });
    expect((await page(t.host, `/races/${t.race.id}/results.json?page=-1&sort=x&q=${"%ff".repeat(300)}`)).status).toBe(200);
    expect((await page(t.host, `/races/${t.race.id}/results.json?format=${encodeURIComponent("<script>")}`)).status).toBe(404);
    expect((await page(t.host, `/races/${t.race.id}?group=${"g".repeat(500)}&racer=${encodeURIComponent("'; drop")}`)).status).toBe(200);
    // An empty format is no choice: the race's public format, as on the plain address.
    expect((await page(t.host, `/races/${t.race.id}/results.json?format=`)).body?.format.formatId).toBe(t.format.id);
  });
});

describe("a public race's lookup", () => {
  it("reads from a D1 replica's session, which any nearby copy may answer, and still finds only public races", async () => {
    const t = await createTimedRace({ racers: 1 });
    const sessions: unknown[] = [];
    // The D1 binding as given, but each session opened is recorded.
    const DB = new Proxy(env.DB, {
      get(target, key) {
        if (key === "withSession") return (constraint: D1SessionConstraint) => (sessions.push(constraint), target.withSession(constraint));
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const tenant = await resolveTenant(openDb(env.DB), t.host, hostConfigFromEnv(env));
    if (!tenant || tenant.kind === "redirect") throw new Error(`no tenant for ${t.host}`);
    const context = { env: { ...env, DB }, tenant } as unknown as AppLoadContext;

    const found = await requirePublicRace(context, t.race.id);
    expect(found.race.id).toBe(t.race.id);
    expect(sessions).toEqual(["first-unconstrained"]);
    const missing = await requirePublicRace(context, crypto.randomUUID()).catch((error: unknown) => error);
    expect(missing instanceof Response && missing.status).toBe(404);
    expect(sessions).toEqual(["first-unconstrained", "first-unconstrained"]);
  });
});
