// Registrations become racers (issue 24): a completed cart of a form linked to a race enters its people in
// the race, once, across an eviction of the race's room; a removed person leaves it on the next sync.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { entrySource } from "../../core/registration/racer-entry";
import { individuals, registrations } from "../../schema/d1";
import { syncRegistrationRacers } from "../../workers/services/registration-racers";
import workerModule from "../../workers/index";
import { cookieFrom, db } from "./auth-fixtures";
import { createForm, post } from "./registration-fixtures";
import { createTimedRace, evictRoom } from "./timing-fixtures";
import { everyRacer } from "../../workers/services/race-racers";
import type { PlacedEntry } from "../../durable/race/registration-entries";

async function racersOf(room: Awaited<ReturnType<typeof createTimedRace>>["room"], count: number) {
  for (let i = 0; i < 100; i++) {
    const racers = await everyRacer(room);
    if (racers.length >= count) return racers;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return everyRacer(room);
}

describe("registrations become racers", { timeout: 30_000 }, () => {
  it("a completed cart enters its people with the next free bibs and the form's course; a re-sync after eviction adds nobody twice; a removed person leaves", async () => {
    const t = await createTimedRace({ racers: 3 });
    const f = await createForm({ isStripe: false });
    await db().update(registrations).set({ clubId: t.club.id, raceId: t.race.id, raceCourseId: t.course.id }).where(eq(registrations.id, f.registration.id));

    const cookieName = `sl_cart_${f.registration.id.replaceAll("-", "")}`;
    const first = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Ada", [f.ids.last]: "Lovelace", [f.ids.distance]: "10k" });
    const cookie = cookieFrom(first, cookieName)!;
    await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Grace", [f.ids.last]: "Hopper", [f.ids.distance]: "5k" }, cookie);
    expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email: "ada@example.com" }, cookie)).status).toBe(302);
    expect((await post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);

    const racers = await racersOf(t.room, 5);
    const entered = racers.filter((r) => r.data.imported_from?.startsWith("registration:"));
    expect(entered.map((r) => [r.data.first_name, r.data.last_name, r.data.bib, r.data.course])).toEqual([
      ["Ada", "Lovelace", 4, t.course.id],
      ["Grace", "Hopper", 5, t.course.id],
    ]);
    const people = await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id));
    expect(entered.map((r) => r.data.imported_from).sort()).toEqual(people.map((p) => entrySource(p.id)).sort());

    // The room is evicted; the organiser re-syncs: nothing is added twice.
    await evictRoom(t.room);
    expect(await syncRegistrationRacers(env, db(), f.registration.id, null)).toEqual({ ok: true, created: 0, updated: 0, removed: 0 });
    expect(await everyRacer(t.room)).toHaveLength(5);

    // A name corrected in the registration follows; a removed person leaves the race.
    const grace = people.find((p) => p.values[f.ids.first]?.v === "Grace")!;
    const ada = people.find((p) => p.values[f.ids.first]?.v === "Ada")!;
    await db()
      .update(individuals)
      .set({ values: { ...ada.values, [f.ids.last]: { v: "King", p: 0 } } })
      .where(eq(individuals.id, ada.id));
    await db().update(individuals).set({ isRemoved: true }).where(eq(individuals.id, grace.id));
    expect(await syncRegistrationRacers(env, db(), f.registration.id, null)).toEqual({ ok: true, created: 0, updated: 1, removed: 1 });
    const after = (await everyRacer(t.room)).filter((r) => r.data.imported_from?.startsWith("registration:"));
    expect(after.map((r) => [r.data.first_name, r.data.last_name, r.data.bib])).toEqual([["Ada", "King", 4]]);
  });

  it("a form without a race, or linked to another club's race, enters nobody", async () => {
    const t = await createTimedRace({ racers: 1 });
    const f = await createForm({ isStripe: false });
    expect(await syncRegistrationRacers(env, db(), f.registration.id, null)).toEqual({ ok: false, error: "This form is not linked to a race." });
    await db().update(registrations).set({ raceId: t.race.id }).where(eq(registrations.id, f.registration.id));
    expect(await syncRegistrationRacers(env, db(), f.registration.id, null)).toEqual({ ok: false, error: "The race this form is linked to no longer exists." });
    expect(await everyRacer(t.room)).toHaveLength(1);
  });
});

describe("the racer sync job", () => {
  it("is retried while the race refuses the entry, dropped when it can never work, and acknowledged when done", async () => {
    const t = await createTimedRace({ racers: 0 });
    const f = await createForm({ isStripe: false });
    // A course the race does not have: the room refuses the racers, so the job waits for the organiser to fix the link.
    await db()
      .update(registrations)
      .set({ clubId: t.club.id, raceId: t.race.id, raceCourseId: "no-such-course" })
      .where(eq(registrations.id, f.registration.id));
    const first = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Ada", [f.ids.last]: "Lovelace", [f.ids.distance]: "10k" });
    const cookie = cookieFrom(first, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
    await post(f.host, `${f.path}/cart`, { intent: "continue", email: "ada@example.com" }, cookie);
    await post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie);
    const job = { kind: "enter-racers", registrationId: f.registration.id, cartIds: null };
    const run = async (attempts = 1) => {
      const batch = createMessageBatch("startline-jobs", [
        { id: "good", timestamp: new Date(), attempts, body: job },
        { id: "garbage", timestamp: new Date(), attempts: 1, body: { kind: "enter-racers", registrationId: "not-a-uuid" } },
      ]);
      const retried = vi.spyOn(batch.messages[0]!, "retry");
      const ctx = createExecutionContext();
      await workerModule.queue!(batch, env, ctx);
      return { ...(await getQueueResult(batch, ctx)), retryOptions: retried.mock.calls.map(([options]) => options) };
    };
    // Retried after a wait that doubles with each delivery, so a room restarting for a moment does not use up the retries.
    let result = await run();
    expect(result.retryMessages).toEqual([{ msgId: "good" }]);
    expect(result.retryOptions).toEqual([{ delaySeconds: 1 }]);
    expect(result.explicitAcks).toEqual(["garbage"]);
    result = await run(4);
    expect(result.retryOptions).toEqual([{ delaySeconds: 8 }]);
    await db().update(registrations).set({ raceCourseId: t.course.id }).where(eq(registrations.id, f.registration.id));
    result = await run();
    expect(result.explicitAcks.sort()).toEqual(["garbage", "good"]);
    expect((await everyRacer(t.room)).map((r) => r.data.last_name)).toEqual(["Lovelace"]);
  });
});

describe("bibs for the racers a sync enters", () => {
  it("gives each start group its next free bibs from its first bib, skipping taken, missing and reserved ones, and the race's from its own", async () => {
    const t = await createTimedRace({ racers: 3 });
    expect((await t.room.updateSettings({ reserved_bibs: "5", missing_bibs_csv: "7" })).ok).toBe(true);
    const wave = await t.room.saveDocument("StartGroup", null, { name: "Wave", first_bib: 10, reserved_bibs: "11" });
    if (!wave.ok) throw new Error("start group refused");
    expect((await t.room.saveRacer(null, { first_name: "Held", last_name: "Twelve", bib: 12 })).ok).toBe(true);
    const entry = (n: number, start_group: string | null): PlacedEntry => ({
      source: `registration:p${n}`,
      first_name: `P${n}`,
      last_name: "Entrant",
      sex: null,
      dob: null,
      province: null,
      city: null,
      club: null,
      team: null,
      category: null,
      chip: null,
      licence: null,
      custom: {},
      course: null,
      start_group,
      moved: false,
    });
    const entries = [entry(1, null), entry(2, wave.value.id), entry(3, wave.value.id), entry(4, null), entry(5, wave.value.id), entry(6, null)];
    expect(await t.room.syncRegistrationEntries({ entries, removed: [] })).toMatchObject({ ok: true, created: 6 });
    const bibs = new Map((await everyRacer(t.room)).map((r) => [r.data.first_name, r.data.bib]));
    expect(["P1", "P4", "P6"].map((name) => bibs.get(name))).toEqual([4, 6, 8]);
    expect(["P2", "P3", "P5"].map((name) => bibs.get(name))).toEqual([10, 13, 14]);
  });
});
