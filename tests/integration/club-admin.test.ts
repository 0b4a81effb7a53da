import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { clubs } from "../../schema/d1";
import { Club } from "../../schema/entities/classes";
import { historyOf } from "../../workers/services/entity-history";
import { db, pagePost, worker, signedInAs } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";

const HOST = "localhost";
const PASSWORD = "glacier-ski-42";

function get(path: string, cookie: string) {
  return worker.fetch(hostRequest(HOST, path, { headers: { Cookie: cookie }, redirect: "manual" }));
}

function hidden(html: string, name: string): string {
  const raw = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
  return raw.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

async function clubWithAdmin(tag: string) {
  const { club } = await createSiteWithRace(db(), { hostname: `${tag}.localhost`, siteName: tag, raceName: `${tag} race` });
  return { club, ...(await signedInAs(HOST, [{ type: "org_admin", clubId: club.id }], { email: `${tag}@example.com`, password: PASSWORD })) };
}

describe("the Organization Admin's page", () => {
  it("shows the club's people, forms and races, and saves its settings with the data API's rules and a history", async () => {
    const { club, user, cookie } = await clubWithAdmin("clubadm-a");
    const page = await get(`/club/${club.id}/admin`, cookie);
    expect(page.status).toBe(200);
    const html = (await page.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Every role in this club, on its forms and races too");
    expect(html).toContain("clubadm-a@example.com");
    expect(html).toContain("Organization Admin");
    expect(html).toContain("Races (1)");
    const form = { original: hidden(html, "original"), mtimes: hidden(html, "mtimes") };
    const refused = await pagePost(HOST, `/club/${club.id}/admin`, { intent: "save", ...form, name: "Nordic Club", country: "Canada" }, cookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("country is a two-letter code");
    // A crafted form cannot reach fields the page does not offer (card payments, the site).
    const saved = await pagePost(HOST, `/club/${club.id}/admin`, { intent: "save", ...form, name: "Nordic Club", country: "CA", is_stripe: "on" }, cookie);
    expect(saved.headers.get("Location")).toBe(`/club/${club.id}/admin?saved=1`);
    const [row] = await db().select().from(clubs).where(eq(clubs.id, club.id));
    expect(row).toMatchObject({ name: "Nordic Club", country: "CA", isStripe: false });
    const history = await historyOf(db(), Club, club.id);
    expect(history.find((h) => h.field === "name")).toMatchObject({ newValue: "Nordic Club", userId: user.id });
  });

  it("is not open to another club's admin", async () => {
    const { club } = await clubWithAdmin("clubadm-b");
    const other = await clubWithAdmin("clubadm-c");
    expect((await get(`/club/${club.id}/admin`, other.cookie)).status).toBe(404);
  });
});
