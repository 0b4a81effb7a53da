/**
 * The history of a race's setup (issue 25): every change made on the setup pages is recorded in the RaceRoom
 * with the change itself, names who made it, survives the room's eviction, and a refused change leaves none.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUserWithPassword, db, pagePost, signIn, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { evictRoom } from "./timing-fixtures";
import type { SetupHistoryEntry } from "../../durable/race/setup-history";

const PASSWORD = "setup-history-77";

async function raceWithAdmin(tag: string) {
  const { club, race } = await createSiteWithRace(db(), { hostname: `${tag}.localhost`, siteName: tag, raceName: `${tag} race` });
  const email = `${tag}@example.com`;
  await createUserWithPassword(email, PASSWORD, [{ type: "org_admin", clubId: club.id }]);
  return { race, cookie: await signIn("localhost", email, PASSWORD), name: `User ${tag}` };
}

const page = (path: string, cookie: string) => worker.fetch(hostRequest("localhost", path, { headers: { Cookie: cookie }, redirect: "manual" }));
const room = (raceId: string) => env.RACE_ROOM.get(env.RACE_ROOM.idFromName(raceId));
const historyOf = async (raceId: string) => (await room(raceId).setupHistory()) as unknown as SetupHistoryEntry[];
const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

describe("a race's setup history", () => {
  it("records who created, changed and deleted a timing point, across an eviction, and nothing for a refused change", async () => {
    const { race, cookie, name } = await raceWithAdmin("setup-hist-a");
    const base = `/race/${race.id}/admin/points`;
    expect(await text(await page(`/race/${race.id}/admin/history`, cookie))).toContain("No setup changes recorded yet.");

    const created = await pagePost("localhost", base, { intent: "create", name: "Stadium" }, cookie);
    expect(created.status).toBe(302);
    const id = new URL(created.headers.get("Location")!, "http://x").searchParams.get("edit") ?? (await room(race.id).documents("TimingPoint"))[0]!.id;

    await evictRoom(room(race.id));
    expect((await pagePost("localhost", base, { intent: "save", target: id, name: "Finish line" }, cookie)).status).toBe(302);
    // A refused change (an empty name) writes neither the change nor its history.
    expect((await pagePost("localhost", base, { intent: "save", target: id, name: "" }, cookie)).status).toBe(400);
    await evictRoom(room(race.id));
    expect((await pagePost("localhost", base, { intent: "delete", target: id }, cookie)).status).toBe(302);

    const history = await historyOf(race.id);
    expect(history.map((h) => [h.change, h.kind, h.field, h.oldValue, h.newValue])).toEqual([
      ["deleted", "TimingPoint", "*", expect.objectContaining({ name: "Finish line" }), null],
      ["changed", "TimingPoint", "name", "Stadium", "Finish line"],
      ["created", "TimingPoint", "*", null, expect.objectContaining({ name: "Stadium" })],
    ]);
    const html = await text(await page(`/race/${race.id}/admin/history`, cookie));
    expect(html).toContain("Deleted Timing point “Finish line”");
    expect(html).toContain("Changed Timing point “Finish line”");
    expect(html).toContain("Created Timing point “Stadium”");
    expect(html).toContain(name);
  });

  it("records a timing settings change field by field, and is not shown to someone without a role on the race", async () => {
    const { race, cookie } = await raceWithAdmin("setup-hist-b");
    expect((await page(`/race/${race.id}/admin/history`, cookie)).status).toBe(200); // opens the race's room
    const saved = await room(race.id).updateSettings({ lap_count: 4 }, { userId: null });
    expect(saved.ok).toBe(true);
    const [entry] = await historyOf(race.id);
    expect(entry).toMatchObject({ kind: "Settings", change: "changed", field: "lap_count", newValue: 4, userId: null });
    expect(await text(await page(`/race/${race.id}/admin/history`, cookie))).toContain("the platform");
    await createUserWithPassword("setup-hist-stranger@example.com", PASSWORD, []);
    const stranger = await signIn("localhost", "setup-hist-stranger@example.com", PASSWORD);
    expect((await page(`/race/${race.id}/admin/history`, stranger)).status).toBe(404);
  });
});
