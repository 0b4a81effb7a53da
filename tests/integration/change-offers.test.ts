// A change offer's page quotes what accepting does before Accept, priced as Accept prices it (a price the organiser
// changed since the offer included); two tabs accepting at once or one after the other change the entry and move
// the money once; and a card page of the offer that expires unpaid leaves the offer's place held (decision 0072).
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { cartChanges, formElements, places, registrations, transactions, waitlistEntries } from "../../schema/d1";
import { routeStripeTo } from "../../workers/payments/stripe";
import { offerFreedPlaces } from "../../workers/services/waitlists";
import { db } from "./auth-fixtures";
import { get, post } from "./registration-fixtures";
import { withStripeFake } from "./stripe-fixtures";
import { CARD, cancel, changeTo, distanceOf, entriesOf, halfForm, mailsTo, offerLink, paidPerson, sessionOf } from "./change-fixtures";

const fake = withStripeFake();
type Form = Awaited<ReturnType<typeof halfForm>>;
type Person = Awaited<ReturnType<typeof paidPerson>>;

/** `who` joins the waitlist for a change to `distance`, `holder` cancels, and the sweep offers `who` the freed place. */
async function offered(f: Form, who: Person, first: string, distance: string, holder: Person, lang: "en" | "fr" = "en") {
  const joined = await post(f.host, `${f.path}/receipt`, changeTo(f, who.personId, crypto.randomUUID(), distance, first, { waitlist: "join" }), who.cookie);
  expect(joined.status).toBe(200);
  if (lang === "fr") await db().update(waitlistEntries).set({ lang: "fr" }).where(eq(waitlistEntries.changeIndividualId, who.personId));
  await cancel(f, holder);
  await offerFreedPlaces(env, db(), f.registration.id, Date.now());
  await vi.waitFor(async () => expect((await entriesOf(f)).map((e) => e.state)).toContain("offered"), { timeout: 10_000, interval: 50 });
  return offerLink(who.email);
}

const changesOf = (entryId: string) => db().select().from(cartChanges).where(eq(cartChanges.id, entryId));
/** A page's text with Intl's no-break spaces and React's escaped apostrophes read as typed. */
const readable = (html: string) => html.replaceAll("\u00a0", " ").replaceAll("&#x27;", "'");
const pageText = async (f: Form, link: string) => readable(await (await get(f.host, link)).text());

describe("a change offer's page and Accept", { timeout: 120_000 }, () => {
  it("quotes the answers and the difference before Accept, and charges the price as it is now when the organiser changed it", async () => {
    const f = await halfForm();
    const ada = await paidPerson(fake(), f, "half", "Ada");
    const bo = await paidPerson(fake(), f, "5k", "Bo");
    const { link, token } = await offered(f, bo, "Bo", "half", ada);

    const page = await pageText(f, link);
    expect(page).toContain("What accepting changes");
    expect(page).toMatch(/Distance<\/th><td>5 km<\/td><td>Half marathon<\/td>/);
    expect(page).toContain("Price difference to pay: $15.00, by card on the next page.");

    // The organiser raises the Half marathon to $60 while the offer stands: the page and Accept say $25.00.
    const [distance] = await db().select().from(formElements).where(eq(formElements.id, f.ids.distance));
    const dearer = distance!.optionsList.map((o) => (o.id === "half" ? { ...o, price_1: 6000, price_2: 6000, price_3: 6000 } : o));
    await db().update(formElements).set({ optionsList: dearer }).where(eq(formElements.id, f.ids.distance));
    expect(await pageText(f, link)).toContain("Price difference to pay: $25.00, by card on the next page.");
    const session = sessionOf((await post(f.host, link, { intent: "accept", offer: token })).headers.get("Location"));
    expect(fake().sessions.get(session!)?.amount_total).toBe(2500);
    expect((await fake().pay(session!, CARD)).status).toBe(303);
    const [entry] = await entriesOf(f);
    expect((await changesOf(entry!.id)).map((c) => c.amount)).toEqual([2500]);
  });

  it("accepted in two tabs at once and then again, in French: one change, one refund, and the second tab told in French", async () => {
    const f = await halfForm([{ id: "3k", display: "3 km", price_1: 1500, price_2: 1500, price_3: 1500, limit: 1 }]);
    await db().update(registrations).set({ isBilingual: true }).where(eq(registrations.id, f.registration.id));
    const ada = await paidPerson(fake(), f, "3k", "Ada");
    const bo = await paidPerson(fake(), f, "10k", "Bo");
    const { link, token } = await offered(f, bo, "Bo", "3k", ada, "fr");
    expect(link).toContain("&lang=fr");
    const refundsBefore = fake().refunds.length;

    const page = await pageText(f, link);
    expect(page).toContain("Ce que l'acceptation change");
    expect(page).toContain("Différence remboursée : 30,00 $.");
    expect(page).toContain("Accepter le changement");

    // Two tabs press Accept at the same moment: one makes the change; the other lands on the page that says so
    // (it found the change being made) or is told so at once (it came after), in French either way.
    const both = await Promise.all([1, 2].map(() => post(f.host, link, { intent: "accept", offer: token })));
    expect(both.map((r) => r.status)).toContain(302);
    for (const reply of both) {
      expect([302, 409]).toContain(reply.status);
      const said = reply.status === 302 ? await pageText(f, reply.headers.get("Location")!) : readable(await reply.text());
      expect(said).toContain("L'inscription a été modifiée. Le reçu à jour vous a été envoyé par courriel.");
    }
    expect((await distanceOf(bo.personId))[f.ids.distance]?.v).toBe("3k");
    const [entry] = await entriesOf(f);
    expect((await changesOf(entry!.id)).map((c) => c.amount)).toEqual([-3000]);
    const refunds = await db()
      .select()
      .from(transactions)
      .where(and(eq(transactions.cartId, bo.cartId), eq(transactions.type, "refund")));
    expect(refunds.map((r) => r.amount)).toEqual([3000]);
    expect(
      fake()
        .refunds.slice(refundsBefore)
        .map((r) => r.amount),
    ).toEqual([3000]);

    // A third tab, later: refused in French, nothing more moves.
    const late = await post(f.host, link, { intent: "accept", offer: token });
    expect(late.status).toBe(409);
    expect(readable(await late.text())).toContain("L'inscription a été modifiée.");
    expect(await changesOf(entry!.id)).toHaveLength(1);
    expect(fake().refunds).toHaveLength(refundsBefore + 1);
    await vi.waitFor(
      async () => expect((await mailsTo(bo.email)).filter((m) => m.subject.endsWith("Spring Relay") && /changed|modifiée/.test(m.subject))).toHaveLength(1),
      {
        timeout: 10_000,
        interval: 50,
      },
    );
  });

  it("keeps the offer's place held when its card page expires unpaid, so Accept again succeeds though someone else asked for it meanwhile", async () => {
    const f = await halfForm();
    const ada = await paidPerson(fake(), f, "half", "Ada");
    const bo = await paidPerson(fake(), f, "5k", "Bo");
    const carl = await paidPerson(fake(), f, "5k", "Carl");
    const { link, token } = await offered(f, bo, "Bo", "half", ada);
    const [entry] = await entriesOf(f);

    // Bo opens the card page and leaves it: Stripe expires it, and the webhook lets go of the page's hold only.
    const first = sessionOf((await post(f.host, link, { intent: "accept", offer: token })).headers.get("Location"));
    await fake().expire(first!);
    const held = await db()
      .select()
      .from(places)
      .where(and(eq(places.unit, bo.personId), eq(places.state, "held")));
    expect(held.map((p) => [p.pool, p.expiresAt])).toEqual([[`opt:${f.ids.distance}:half`, entry!.offerExpiresAt]]);

    // Carl asks for the Half marathon meanwhile: sold out. The sweep leaves Bo's offer standing.
    const carlTry = await post(f.host, `${f.path}/receipt`, changeTo(f, carl.personId, crypto.randomUUID(), "half", "Carl"), carl.cookie);
    expect(carlTry.status).toBe(409);
    expect(await carlTry.text()).toContain("Half marathon: Sold out");
    await offerFreedPlaces(env, db(), f.registration.id, Date.now());
    expect((await entriesOf(f)).find((e) => e.id === entry!.id)?.state).toBe("offered");

    // Bo accepts again (a double click): one new page, paid once, the change made once.
    expect(await pageText(f, link)).toContain("Price difference to pay: $15.00");
    const again = await Promise.all([1, 2].map(() => post(f.host, link, { intent: "accept", offer: token })));
    const sessions = again.map((r) => sessionOf(r.headers.get("Location")));
    expect(sessions[0]).not.toBeNull();
    expect(sessions[0]).not.toBe(first);
    expect(sessions[1]).toBe(sessions[0]);
    expect((await fake().pay(sessions[0]!, CARD)).status).toBe(303);
    expect((await distanceOf(bo.personId))[f.ids.distance]?.v).toBe("half");
    expect((await changesOf(entry!.id)).map((c) => c.amount)).toEqual([1500]);
    expect((await distanceOf(carl.personId))[f.ids.distance]?.v).toBe("5k");
  });

  it("keeps the offer's place when Stripe refuses to open its card page, and Accept again opens one", async () => {
    const f = await halfForm();
    const ada = await paidPerson(fake(), f, "half", "Ada");
    const bo = await paidPerson(fake(), f, "5k", "Bo");
    const { link, token } = await offered(f, bo, "Bo", "half", ada);
    const heldForBo = () =>
      db()
        .select()
        .from(places)
        .where(and(eq(places.unit, bo.personId), eq(places.state, "held")));
    expect(await heldForBo()).toHaveLength(1);
    // Stripe refuses the Checkout Session once (a 400 the SDK does not retry).
    routeStripeTo(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === "/v1/checkout/sessions" && (init?.method ?? "GET") === "POST")
        return Response.json({ error: { type: "invalid_request_error", message: "Refused for the test" } }, { status: 400 });
      return fake().fetch(input, init);
    });
    const refused = await post(f.host, link, { intent: "accept", offer: token });
    routeStripeTo(fake().fetch);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("The card payment could not be started. Please try again in a moment.");
    expect(await heldForBo()).toHaveLength(1);
    expect(sessionOf((await post(f.host, link, { intent: "accept", offer: token })).headers.get("Location"))).not.toBeNull();
  });

  it("a card page expiring after the offer's time frees the place for the next person", async () => {
    const f = await halfForm();
    const ada = await paidPerson(fake(), f, "half", "Ada");
    const bo = await paidPerson(fake(), f, "5k", "Bo");
    const { link, token } = await offered(f, bo, "Bo", "half", ada);
    const session = sessionOf((await post(f.host, link, { intent: "accept", offer: token })).headers.get("Location"));
    await db()
      .update(waitlistEntries)
      .set({ offerExpiresAt: Date.now() - 1000 })
      .where(eq(waitlistEntries.changeIndividualId, bo.personId));
    await fake().expire(session!);
    expect(
      await db()
        .select()
        .from(places)
        .where(and(eq(places.unit, bo.personId), eq(places.state, "held"))),
    ).toHaveLength(0);
    expect((await get(f.host, link)).status).toBe(410);
  });
});
