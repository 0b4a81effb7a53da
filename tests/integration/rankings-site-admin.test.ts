/**
 * The Site Administrator's path to a club's ranking pages (decision 0054, "Who": the rankingschemes area of the
 * club, its Organization Admin or a System or Site Administrator with the flag; checked in decision 0063): one
 * of the club's own site with the flag opens, starts, edits and downloads; one without the flag, or of another
 * site, is refused; and a double-sent form still starts one scheme.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rankingSchemes } from "../../schema/d1";
import { createUserWithPassword, db, pagePost, signIn, pageGet } from "./auth-fixtures";
import { createSiteWithRace } from "./fixtures";

const PASSWORD = "glacier-ski-42";
const HOST = "localhost";
const get = (path: string, cookie?: string) => pageGet(HOST, path, cookie);

async function siteAdmin(siteId: string, config: Record<string, boolean>) {
  const email = `rank-site-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const user = await createUserWithPassword(email, PASSWORD, [{ type: "site_admin", siteId }]);
  await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?").bind(JSON.stringify(config), user.id).run();
  return signIn(HOST, email, PASSWORD);
}

async function clubOnSite(tag: string) {
  return createSiteWithRace(db(), { hostname: `${tag}-${crypto.randomUUID().slice(0, 8)}.localhost`, siteName: tag, raceName: `Opener ${tag}` });
}

describe("a Site Administrator and a club's rankings", { timeout: 30_000 }, () => {
  it("of the club's site with the flag opens, starts (once on a double send), edits and downloads the club's ranking list", async () => {
    const { site, club, race } = await clubOnSite("rank-site");
    const cookie = await siteAdmin(site.id, { rankingschemes: true });
    const base = `/club/${club.id}/rankings`;
    const list = await get(base, cookie);
    expect(list.status).toBe(200);
    expect(await list.text()).toContain("No ranking scheme yet.");

    const submission = crypto.randomUUID();
    const fields = { intent: "create", submission, name: "Site list", sport: "", season: "2026" };
    const sent = await Promise.all([1, 2].map(() => pagePost(HOST, base, fields, cookie)));
    expect(sent.map((r) => r.status)).toEqual([302, 302]);
    const rows = await db().select().from(rankingSchemes).where(eq(rankingSchemes.clubId, club.id));
    expect(rows.map((r) => [r.id, r.siteId])).toEqual([[submission, site.id]]);

    const page = `${base}/${submission}`;
    const opened = await (await get(page, cookie)).text();
    expect(opened).toContain("Site list");
    expect(opened).toContain(`race_${race.id}`); // the editor's race choices
    const chosen = await pagePost(HOST, page, { intent: "races", season: "2026", [`race_${race.id}`]: "on" }, cookie);
    expect(chosen.status).toBe(302);
    const [row] = await db().select().from(rankingSchemes).where(eq(rankingSchemes.id, submission));
    expect((row!.config as { seasons: { races: { race: string }[] }[] }).seasons[0]!.races.map((r) => r.race)).toEqual([race.id]);
    const garbage = await pagePost(HOST, page, { intent: "method", season: "2026", factor: "abc", penalty_count: "5", top_finishers: "10" }, cookie);
    expect(garbage.status).toBe(400);
    expect(await garbage.text()).toContain("The F factor is a number");
    const csv = await get(`${page}/list.csv`, cookie);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  });

  it("is let in by the 'all areas' flag too, and refused without the flag or on another site", async () => {
    const { site, club } = await clubOnSite("rank-flags");
    const other = await clubOnSite("rank-other");
    const base = `/club/${club.id}/rankings`;
    expect((await get(base, await siteAdmin(site.id, { all: true }))).status).toBe(200);

    const unflagged = await siteAdmin(site.id, { pages: true });
    expect((await get(base, unflagged)).status).toBe(404);
    const refused = await pagePost(HOST, base, { intent: "create", submission: crypto.randomUUID(), name: "No", sport: "", season: "2026" }, unflagged);
    expect(refused.status).toBe(404);

    const elsewhere = await siteAdmin(other.site.id, { rankingschemes: true });
    expect((await get(base, elsewhere)).status).toBe(404);
    const foreign = await pagePost(HOST, base, { intent: "create", submission: crypto.randomUUID(), name: "No", sport: "", season: "2026" }, elsewhere);
    expect(foreign.status).toBe(404);
    expect(await db().select().from(rankingSchemes).where(eq(rankingSchemes.clubId, club.id))).toHaveLength(0);
    // Their own site's club is theirs.
    expect((await get(`/club/${other.club.id}/rankings`, elsewhere)).status).toBe(200);
  });
});
