// A new entry's waitlist offer keeps its place until the offer ends (decision 0075): its card page expiring, Stripe
// refusing to open one, the registrant changing the cart or the sweep after a page's 35 minutes leave the place
// held for the offer; the offered registrant pays within the offer's time and takes it once; a page expiring after
// the offer's end frees it. Every capped choice the offer held for its person stands with it, not only the one
// waited for (a T-shirt size, decision 0078); a friend added to the cart is held only while a page is open.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it, vi } from "vitest";
import { carts, formElements, paymentAttempts, places, waitlistEntries } from "../../schema/d1";
import { routeStripeTo } from "../../workers/payments/stripe";
import { HOLD_MS } from "../../workers/services/places";
import { offerFreedPlaces } from "../../workers/services/waitlists";
import { cookieFrom, db, worker } from "./auth-fixtures";
import { CARD, cancel, entriesOf, halfForm, mailsTo, paidPerson, sessionOf } from "./change-fixtures";
import { get, post } from "./registration-fixtures";
import { withStripeFake } from "./stripe-fixtures";

const fake = withStripeFake();
const WEBHOOK = "http://localhost:8787/_payments/stripe/webhook";
type Form = Awaited<ReturnType<typeof halfForm>>;

const cookieName = (f: Form) => `sl_cart_${f.registration.id.replaceAll("-", "")}`;
const person = (f: Form, first: string, distance = "half", extra: Record<string, string> = {}) => ({
  intent: "save-person",
  [f.ids.first]: first,
  [f.ids.last]: "Runner",
  [f.ids.distance]: distance,
  ...extra,
});
const halfPool = (f: Form) => `opt:${f.ids.distance}:half`;
const heldIn = (cartId: string) =>
  db()
    .select()
    .from(places)
    .where(and(eq(places.cartId, cartId), eq(places.state, "held")));
/** Opens the cart's card page: the path of the fake's page, or the refusal. */
const payByCard = (f: Form, cookie: string) => post(f.host, `${f.path}/pay`, { intent: "card" }, cookie);

/** The new-entry offer mailed to `to` (its link opens the cart made for them). */
async function offerCartPath(to: string): Promise<string> {
  return vi.waitFor(async () => {
    const mail = (await mailsTo(to)).find((m) => m.text.includes("/offer?cart="));
    expect(mail).toBeDefined();
    const url = new URL(/https?:\/\/\S+\/offer\?cart=\S+/.exec(mail!.text)![0]!);
    return url.pathname + url.search;
  });
}

/**
 * The Half marathon has one place. Gus put a runner for it in his cart while it was free (unpaid: a cart holds
 * nothing); Ada paid for it; Ben joined the waitlist (then Cy); Ada cancels and Ben is offered her place, opens the
 * mailed link and gives his receipt address.
 */
async function offeredToBen(f: Form, benExtra: Record<string, string> = {}) {
  const gus = cookieFrom(await post(f.host, f.path, person(f, "Gus")), cookieName(f))!;
  const ada = await paidPerson(fake(), f, "half", "Ada");
  const tag = crypto.randomUUID().slice(0, 8);
  const benEmail = `ben-${tag}@example.com`;
  for (const [first, email] of [
    ["Ben", benEmail],
    ["Cy", `cy-${tag}@example.com`],
  ] as const) {
    const answers = person(f, first, "half", first === "Ben" ? benExtra : {});
    const joined = await post(f.host, f.path, { ...answers, waitlist: "join", waitlist_email: email, submission: crypto.randomUUID() });
    expect(await joined.text()).toContain("on the waitlist for Half marathon");
  }
  await cancel(f, ada);
  await offerFreedPlaces(env, db(), f.registration.id, Date.now());
  const link = await offerCartPath(benEmail);
  const opened = await get(f.host, link);
  expect(opened.status).toBe(302);
  const ben = cookieFrom(opened, cookieName(f))!;
  expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email: benEmail }, ben)).status).toBe(302);
  const [entry, cy] = await entriesOf(f);
  expect([entry!.state, cy!.state]).toEqual(["offered", "waiting"]);
  return { gus, ben, link, entry: entry!, cartId: entry!.offerCartId! };
}

describe("a new entry's waitlist offer and its card pages", { timeout: 120_000 }, () => {
  it("keeps the place held to the offer's end when its card page expires; others are refused; Ben pays once within the offer's time", async () => {
    const f = await halfForm();
    const { gus, ben, link, entry, cartId } = await offeredToBen(f);

    // Ben opens the card page: its hold does not cut the offer's 24 hours to the page's 35 minutes.
    const first = sessionOf((await payByCard(f, ben)).headers.get("Location"));
    expect(first).not.toBeNull();
    expect((await heldIn(cartId)).map((p) => [p.pool, p.expiresAt])).toEqual([[halfPool(f), entry.offerExpiresAt]]);

    // He leaves it: Stripe expires it, and the webhook leaves the offer's place held, ending with the offer.
    await fake().expire(first!);
    expect((await heldIn(cartId)).map((p) => [p.pool, p.expiresAt])).toEqual([[halfPool(f), entry.offerExpiresAt]]);

    // Forty minutes on, the sweep (the cron) finds no free place: Cy still waits, Ben's offer stands.
    expect(await offerFreedPlaces(env, db(), f.registration.id, Date.now() + HOLD_MS + 5 * 60_000)).toBe(0);
    expect((await entriesOf(f)).map((e) => e.state)).toEqual(["offered", "waiting"]);

    // Gus, whose cart had a Half marathon runner before it filled, is refused at payment; a new registrant is told it is full.
    expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email: "gus@example.com" }, gus)).status).toBe(302);
    const gusTry = await payByCard(f, gus);
    expect(gusTry.status).toBe(409);
    expect(await gusTry.text()).toContain("Half marathon: Sold out");
    const newcomer = await post(f.host, f.path, person(f, "Dee"));
    expect(newcomer.status).toBe(400);
    expect(await newcomer.text()).toContain("Half marathon is full.");

    // Ben comes back from the mail within the offer's time: the place is still his. A double click on Pay opens one page.
    const back = await get(f.host, link);
    expect(back.status).toBe(302);
    expect(await (await get(f.host, `${f.path}/cart`, ben)).text()).toContain("A place is held for you until");
    const clicks = await Promise.all([payByCard(f, ben), payByCard(f, ben)]);
    const sessions = clicks.map((r) => sessionOf(r.headers.get("Location")));
    expect(sessions[0]).not.toBeNull();
    expect(sessions[0]).not.toBe(first);
    expect(sessions[1]).toBe(sessions[0]);
    expect((await fake().pay(sessions[0]!, CARD)).status).toBe(303);

    // One paid attempt, one place taken, no hold left; the offer is accepted and Cy waits on.
    const attempts = await db().select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cartId));
    expect(attempts.filter((a) => a.status === "paid")).toHaveLength(1);
    const halfPlaces = await db()
      .select()
      .from(places)
      .where(and(eq(places.registrationId, f.registration.id), eq(places.pool, halfPool(f))));
    expect(halfPlaces.filter((p) => p.cartId === cartId).map((p) => p.state)).toEqual(["taken"]);
    expect(halfPlaces.filter((p) => p.state === "held")).toEqual([]);
    const [paid] = await db().select().from(carts).where(eq(carts.id, cartId));
    expect(paid!.isComplete).toBe(true);
    await offerFreedPlaces(env, db(), f.registration.id, Date.now());
    expect((await entriesOf(f)).map((e) => e.state)).toEqual(["accepted", "waiting"]);
    expect(await (await get(f.host, link)).text()).toContain("You have already taken this place.");
  });

  it("holds every capped choice the offer made for Ben (his T-shirt size) to the offer's end; a friend's only while a page is open", async () => {
    const f = await halfForm();
    // A T-shirt size field: one Small and one Medium left, neither full when Ben joins.
    const shirt = crypto.randomUUID();
    await db()
      .insert(formElements)
      .values({
        id: shirt,
        registrationId: f.registration.id,
        clubId: f.club.id,
        siteId: f.site.id,
        fieldMtimes: {},
        type: "option",
        caption: "T-shirt size",
        ordinal: 9,
        optionsList: [
          { id: "s", display: "Small", limit: 1 },
          { id: "m", display: "Medium", limit: 1 },
        ],
      });
    const small = `opt:${shirt}:s`;
    const medium = `opt:${shirt}:m`;
    // Hal put a Small in his cart while it was free (an unpaid cart holds nothing).
    const hal = cookieFrom(await post(f.host, f.path, person(f, "Hal", "5k", { [shirt]: "s" })), cookieName(f))!;
    const { ben, entry, cartId } = await offeredToBen(f, { [shirt]: "s" });
    expect(entry.pools).toEqual([halfPool(f)]);
    expect(entry.offerPools).toEqual([halfPool(f), small].sort());
    const held = async () => (await heldIn(cartId)).map((p) => [p.pool, p.expiresAt]).sort();
    expect(await held()).toEqual(
      [
        [halfPool(f), entry.offerExpiresAt],
        [small, entry.offerExpiresAt],
      ].sort(),
    );

    // Ben adds Kim with a Medium, then opens the card page with a double click: one page, holding all three.
    expect((await post(f.host, f.path, { ...person(f, "Kim", "5k", { [shirt]: "m" }), submission: crypto.randomUUID() }, ben)).status).toBe(302);
    const opened = await Promise.all([payByCard(f, ben), payByCard(f, ben)]);
    const [first, again] = opened.map((r) => sessionOf(r.headers.get("Location")));
    expect(first).not.toBeNull();
    expect(again).toBe(first);
    const [kimHold] = (await heldIn(cartId)).filter((p) => p.pool === medium);
    expect(kimHold!.expiresAt).toBeLessThan(entry.offerExpiresAt!);

    // The page expires: Ben's Half marathon and Small stay his until the offer's end; Kim's Medium goes.
    await fake().expire(first!);
    expect(await held()).toEqual(
      [
        [halfPool(f), entry.offerExpiresAt],
        [small, entry.offerExpiresAt],
      ].sort(),
    );
    expect(await offerFreedPlaces(env, db(), f.registration.id, Date.now() + HOLD_MS + 5 * 60_000)).toBe(0);

    // Hal is refused the Small at payment; a garbage pay request from Ben is a 400 and changes nothing.
    expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email: "hal@example.com" }, hal)).status).toBe(302);
    const halTry = await payByCard(f, hal);
    expect(halTry.status).toBe(409);
    expect(await halTry.text()).toContain("Small: Sold out");
    expect((await post(f.host, `${f.path}/pay`, { intent: "🚲" }, ben)).status).toBe(400);
    expect(await held()).toEqual(
      [
        [halfPool(f), entry.offerExpiresAt],
        [small, entry.offerExpiresAt],
      ].sort(),
    );

    // Ben comes back and pays once (a double click again): every place is taken once, the offer accepted.
    const clicks = await Promise.all([payByCard(f, ben), payByCard(f, ben)]);
    const [second, twice] = clicks.map((r) => sessionOf(r.headers.get("Location")));
    expect(second).not.toBeNull();
    expect(twice).toBe(second);
    expect((await fake().pay(second!, CARD)).status).toBe(303);
    const mine = await db().select().from(places).where(eq(places.cartId, cartId));
    expect(
      mine
        .filter((p) => [halfPool(f), small, medium].includes(p.pool))
        .map((p) => `${p.pool} ${p.state}`)
        .sort(),
    ).toEqual([`${halfPool(f)} taken`, `${small} taken`, `${medium} taken`].sort());
    expect((await db().select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cartId))).filter((a) => a.status === "paid")).toHaveLength(1);
    await offerFreedPlaces(env, db(), f.registration.id, Date.now());
    expect((await entriesOf(f)).map((e) => e.state)).toEqual(["accepted", "waiting"]);
  });

  it("keeps the offer's place when Stripe refuses to open the page and when Ben changes his cart; a page opened again renews, never shortens", async () => {
    const f = await halfForm();
    const { ben, entry, cartId } = await offeredToBen(f);
    routeStripeTo(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === "/v1/checkout/sessions" && (init?.method ?? "GET") === "POST")
        return Response.json({ error: { type: "invalid_request_error", message: "Refused for the test" } }, { status: 400 });
      return fake().fetch(input, init);
    });
    const refused = await payByCard(f, ben);
    routeStripeTo(fake().fetch);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("The card payment could not be started. Please try again in a moment.");
    expect((await heldIn(cartId)).map((p) => [p.pool, p.expiresAt])).toEqual([[halfPool(f), entry.offerExpiresAt]]);

    // A page opens, then Ben adds a friend on the 5 km: the open page is closed, the offer's place stays his.
    expect(sessionOf((await payByCard(f, ben)).headers.get("Location"))).not.toBeNull();
    const added = await post(f.host, f.path, { ...person(f, "Kim", "5k"), submission: crypto.randomUUID() }, ben);
    expect(added.status).toBe(302);
    expect((await heldIn(cartId)).map((p) => [p.pool, p.expiresAt])).toEqual([[halfPool(f), entry.offerExpiresAt]]);

    // An offer with less time left than a page: the page's 35 minutes win, and its expiry puts the offer's end back.
    const soon = Date.now() + 10 * 60_000;
    await db().update(waitlistEntries).set({ offerExpiresAt: soon }).where(eq(waitlistEntries.id, entry.id));
    await db().update(places).set({ expiresAt: soon }).where(eq(places.cartId, cartId));
    const before = Date.now();
    const session = sessionOf((await payByCard(f, ben)).headers.get("Location"));
    const [renewed] = await heldIn(cartId);
    expect(renewed!.expiresAt).toBeGreaterThanOrEqual(before + HOLD_MS);
    await fake().expire(session!);
    expect((await heldIn(cartId)).map((p) => [p.pool, p.expiresAt])).toEqual([[halfPool(f), soon]]);
  });

  it("a card page expiring after the offer's end frees the place, and the sweep offers it to the next person", async () => {
    const f = await halfForm();
    const { ben, link, entry, cartId } = await offeredToBen(f);
    const session = sessionOf((await payByCard(f, ben)).headers.get("Location"));
    await db()
      .update(waitlistEntries)
      .set({ offerExpiresAt: Date.now() - 1000 })
      .where(eq(waitlistEntries.id, entry.id));
    await fake().expire(session!);
    expect(await heldIn(cartId)).toHaveLength(0);
    expect((await get(f.host, link)).status).toBe(410);
    await vi.waitFor(async () => expect((await entriesOf(f)).map((e) => e.state)).toEqual(["expired", "offered"]), { timeout: 10_000, interval: 50 });
  });

  it("answers a malformed pay request or expiry event with a 4xx and keeps the offer's place", async () => {
    const f = await halfForm();
    const { ben, entry, cartId } = await offeredToBen(f);
    const bad = await post(f.host, `${f.path}/pay`, { intent: "teleport" }, ben);
    expect(bad.status).toBe(400);
    // An expiry event whose session is not one (signed, so it passes the signature check), and one not signed.
    const payload = JSON.stringify({ id: `evt_${crypto.randomUUID().slice(0, 8)}`, type: "checkout.session.expired", data: { object: { id: 7 } } });
    const signature = await new Stripe("sk_test_fake").webhooks.generateTestHeaderStringAsync({ payload, secret: "whsec_integration" });
    for (const headers of [{ "Stripe-Signature": signature }, {}] as Record<string, string>[]) {
      const reply = await worker.fetch(new Request(WEBHOOK, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: payload }));
      expect(reply.status).toBe(400);
    }
    expect((await heldIn(cartId)).map((p) => [p.pool, p.expiresAt])).toEqual([[halfPool(f), entry.offerExpiresAt]]);
  });
});
