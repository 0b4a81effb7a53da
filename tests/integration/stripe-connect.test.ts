import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { clubs } from "../../schema/d1";
import { stripeGateway } from "../../workers/payments/stripe";
import { cookieFrom, createUserWithPassword, db, pagePost, signIn, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";
import { createForm, get as formGet, post as formPost } from "./registration-fixtures";
import { withStripeFake } from "./stripe-fixtures";

const HOST = "localhost";
const PASSWORD = "glacier-ski-42";
const ONBOARDING = /^http:\/\/127\.0\.0\.1:12111\/connect\/onboarding\/\w+$/;

const fake = withStripeFake();

function get(path: string, cookie?: string) {
  return worker.fetch(hostRequest(`${HOST}:8787`, path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }));
}

async function pageText(path: string, cookie: string): Promise<string> {
  const page = await get(path, cookie);
  expect(page.status).toBe(200);
  return (await page.text()).replaceAll("<!-- -->", "");
}

async function clubWithAdmin(tag: string) {
  const { club } = await createSiteWithRace(db(), { hostname: `${tag}.localhost`, siteName: tag, raceName: `${tag} race` });
  await db()
    .update(clubs)
    .set({ isStripe: true, email: `${tag}-club@example.com`, country: "CA" })
    .where(eq(clubs.id, club.id));
  const email = `${tag}-${crypto.randomUUID().slice(0, 6)}@example.com`;
  await createUserWithPassword(email, PASSWORD, [{ type: "org_admin", clubId: club.id }]);
  return { club, cookie: await signIn(HOST, email, PASSWORD) };
}

function connect(clubId: string, cookie: string) {
  return pagePost(HOST, `/club/${clubId}/admin`, { intent: "stripe-connect" }, cookie);
}

async function clubRow(clubId: string) {
  const [row] = await db().select().from(clubs).where(eq(clubs.id, clubId));
  return row!;
}

/** Onboarding started from the admin page; the link the club is sent to. */
async function startedOnboarding(clubId: string, cookie: string): Promise<string> {
  const started = await connect(clubId, cookie);
  expect(started.status).toBe(303);
  const link = started.headers.get("Location") ?? "";
  expect(link).toMatch(ONBOARDING);
  return link;
}

/** An account.updated event of our own making, signed with the Worker's webhook secret and posted to it. */
async function signedEvent(fields: { account: string | null; created?: number; data: { object: unknown } }) {
  const payload = JSON.stringify({
    id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
    object: "event",
    type: "account.updated",
    created: Math.floor(Date.now() / 1000),
    ...fields,
  });
  const signature = await new Stripe("sk_test_x").webhooks.generateTestHeaderStringAsync({ payload, secret: "whsec_integration" });
  return worker.fetch(
    new Request("http://localhost:8787/_payments/stripe/webhook", { method: "POST", headers: { "Stripe-Signature": signature }, body: payload }),
  );
}

describe("a club connects its Stripe account (against the local fake)", () => {
  it("makes one account when onboarding is started twice at once, and the return page stores that charges are enabled", async () => {
    const { club, cookie } = await clubWithAdmin("connect-a");
    const before = await pageText(`/club/${club.id}/admin`, cookie);
    expect(before).toContain("Card payments");
    expect(before).toMatch(/data-testid="stripe-status">Not connected</);
    expect(before).toContain("Connect with Stripe");

    // A double click, or two tabs: both go to Stripe, each with its own single-use link, to the one account.
    const both = await Promise.all([connect(club.id, cookie), connect(club.id, cookie)]);
    expect(both.map((r) => r.status)).toEqual([303, 303]);
    const [first, second] = both.map((r) => r.headers.get("Location") ?? "");
    expect(first).toMatch(ONBOARDING);
    expect(second).toMatch(ONBOARDING);
    expect(first).not.toBe(second);
    expect(fake().accounts.size).toBe(1);
    const [account] = fake().accounts.values();
    expect(account).toMatchObject({ type: "express", country: "CA", email: "connect-a-club@example.com", metadata: { club_id: club.id } });
    expect(await clubRow(club.id)).toMatchObject({ stripeAccountId: account!.id, stripeChargesEnabled: false });
    const creates = fake().requestLog.filter((r) => r.method === "POST" && r.path === "/v1/accounts" && r.status === 200);
    expect(new Set(creates.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(creates.filter((r) => !r.replayed)).toHaveLength(1);

    const midway = await pageText(`/club/${club.id}/admin`, cookie);
    expect(midway).toMatch(/data-testid="stripe-status">Onboarding not finished: 8 requirements due</);
    expect(midway).toContain("Continue onboarding");

    // The webhook is held back: the return page alone must store the new state.
    fake().pause();
    const done = await fake().completeOnboarding(first!);
    expect(done.location).toBe(`http://${HOST}:8787/club/${club.id}/stripe/return`);
    const back = await get(`/club/${club.id}/stripe/return`, cookie);
    expect(back.status).toBe(302);
    expect(back.headers.get("Location")).toBe(`/club/${club.id}/admin?saved=stripeReturned`);
    const row = await clubRow(club.id);
    expect(row).toMatchObject({ stripeChargesEnabled: true, stripePayoutsEnabled: true, stripeDetailsSubmitted: true, stripeRequirements: [] });
    const after = await pageText(`/club/${club.id}/admin?saved=stripeReturned`, cookie);
    expect(after).toMatch(/data-testid="stripe-status">Charges enabled, payouts enabled</);
    expect(after).toContain("Back from Stripe: the card payment status below is up to date.");
    expect(after).not.toContain("Continue onboarding");
    // The held-back event, arriving late, says the same and is applied once.
    const [delivery] = await fake().resume();
    expect(delivery).toMatchObject({ status: 200, body: "Applied" });
  });

  it("the refresh page makes a new link for an expired one and sends the club on to it", async () => {
    const { club, cookie } = await clubWithAdmin("connect-b");
    const link = await startedOnboarding(club.id, cookie);
    expect(await fake().fetch(link)).toMatchObject({ status: 200 });
    // A second visit of a single-use link is sent to refresh_url.
    const revisited = await fake().fetch(link, { redirect: "manual" });
    expect(revisited.headers.get("Location")).toBe(`http://${HOST}:8787/club/${club.id}/stripe/refresh`);
    const again = await get(`/club/${club.id}/stripe/refresh`, cookie);
    expect(again.status).toBe(303);
    expect(again.headers.get("Location")).toMatch(ONBOARDING);
    expect(again.headers.get("Location")).not.toBe(link);
    expect(fake().accounts.size).toBe(1);
  });

  it("account.updated, signed by the fake, sets the club's flags once; a replay changes nothing", async () => {
    const { club, cookie } = await clubWithAdmin("connect-c");
    const link = await startedOnboarding(club.id, cookie);
    await fake().completeOnboarding(link);
    const event = fake().events.find((e) => e.type === "account.updated")!;
    expect(event.event.account).toBe((await clubRow(club.id)).stripeAccountId);
    expect(event.deliveries.at(-1)).toMatchObject({ status: 200, body: "Applied" });
    expect(await clubRow(club.id)).toMatchObject({ stripeChargesEnabled: true, stripePayoutsEnabled: true, stripeDetailsSubmitted: true });

    // Were the replay applied again, it would undo this.
    await db().update(clubs).set({ stripeChargesEnabled: false }).where(eq(clubs.id, club.id));
    const replay = await fake().resend(event.id);
    expect(replay).toMatchObject({ status: 200, body: "Already applied" });
    expect((await clubRow(club.id)).stripeChargesEnabled).toBe(false);
  });

  it("an account.updated older than what the club last heard is recorded but changes nothing", async () => {
    const { club, cookie } = await clubWithAdmin("connect-f");
    await fake().completeOnboarding(await startedOnboarding(club.id, cookie));
    const { stripeAccountId } = await clubRow(club.id);
    // Stripe does not promise order: an event from before onboarding finished arrives last.
    const stale = await signedEvent({
      account: stripeAccountId,
      created: Math.floor(Date.now() / 1000) - 3600,
      data: { object: { id: stripeAccountId, charges_enabled: false, payouts_enabled: false, requirements: { currently_due: ["external_account"] } } },
    });
    expect(stale.status).toBe(200);
    expect(await clubRow(club.id)).toMatchObject({ stripeChargesEnabled: true, stripePayoutsEnabled: true, stripeRequirements: [] });
  });

  it("ignores account.updated for an account no club has (200), and refuses a malformed one (400)", async () => {
    const gateway = stripeGateway(env)!;
    const stray = await gateway.createAccount({ clubId: "no-such-club", email: null, country: "CA", idempotencyKey: crypto.randomUUID() });
    const link = await gateway.createAccountLink({ account: stray.id, refreshUrl: "http://localhost:8787/x", returnUrl: "http://localhost:8787/y" });
    await fake().completeOnboarding(link.url);
    const event = fake().events.find((e) => e.type === "account.updated")!;
    expect(event.deliveries.at(-1)).toMatchObject({ status: 200, body: "Ignored: no club has this account" });

    const refused = await signedEvent({ account: "acct_bad", data: { object: { id: "acct_bad", charges_enabled: "yes" } } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe("Malformed account");
  });

  it("does not offer cards on a club whose connected account cannot take charges yet", async () => {
    const f = await createForm({ stripeAccountId: `acct_${crypto.randomUUID().slice(0, 8)}`, stripeChargesEnabled: false });
    const first = await formPost(f.host, f.path, { intent: "save-person", [f.ids.first]: "Ada", [f.ids.last]: "Lovelace", [f.ids.distance]: "10k" });
    const cart = cookieFrom(first, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
    expect((await formPost(f.host, `${f.path}/cart`, { intent: "continue", email: "ada@example.com" }, cart)).status).toBe(302);
    const pay = await (await formGet(f.host, `${f.path}/pay`, cart)).text();
    expect(pay).not.toContain("by card");
    const refused = await formPost(f.host, `${f.path}/pay`, { intent: "card" }, cart);
    expect(refused.headers.get("Location") ?? "").not.toContain("/c/pay/");
    expect(fake().sessions.size).toBe(0);
    // Charges enabled (as account.updated or the return page store it): the same cart is offered the card.
    await db().update(clubs).set({ stripeChargesEnabled: true }).where(eq(clubs.id, f.club.id));
    expect(await (await formGet(f.host, `${f.path}/pay`, cart)).text()).toContain("by card");
  });

  it("a merchant club is told the platform collects for it; another club's admin and a race admin cannot connect it", async () => {
    const { club, cookie } = await clubWithAdmin("connect-d");
    const other = await clubWithAdmin("connect-e");
    for (const path of [`/club/${club.id}/stripe/return`, `/club/${club.id}/stripe/refresh`, `/club/${club.id}/admin`]) {
      expect((await get(path, other.cookie)).status, path).toBe(404);
    }
    expect((await connect(club.id, other.cookie)).status).toBe(404);
    const raceAdmin = `race-${crypto.randomUUID().slice(0, 6)}@example.com`;
    await createUserWithPassword(raceAdmin, PASSWORD, [{ type: "race_admin", clubId: club.id, scope: crypto.randomUUID() }]);
    const raceCookie = await signIn(HOST, raceAdmin, PASSWORD);
    expect((await get(`/club/${club.id}/stripe/refresh`, raceCookie)).status).toBe(403);
    expect((await connect(club.id, raceCookie)).status).toBe(403);
    expect((await get(`/club/${club.id}/stripe/return`)).status).toBeGreaterThanOrEqual(300);
    // Stripe's refresh page (a GET) continues onboarding, never starts it: a club with no account goes back to its page.
    const refresh = await get(`/club/${club.id}/stripe/refresh`, cookie);
    expect([refresh.status, refresh.headers.get("Location")]).toEqual([302, `/club/${club.id}/admin`]);
    expect(fake().accounts.size).toBe(0);

    await db().update(clubs).set({ isMerchant: true }).where(eq(clubs.id, club.id));
    expect(await pageText(`/club/${club.id}/admin`, cookie)).toContain("The platform collects this club&#x27;s card payments");
    const refused = await connect(club.id, cookie);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("The platform collects this club's card payments, so the club needs no Stripe account of its own.");
    expect(fake().accounts.size).toBe(0);
  });
});
