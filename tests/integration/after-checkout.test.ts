// After checkout (issue 24, decision 0061): a registrant changes a paid priced answer (another distance: the
// difference paid by card, or refunded under the form's cancellation policy), adds a limited option (held while
// the card page is open, never oversold, released when the page expires), and a Quebec club's QST number
// prints under the tax line.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { QST_NUMBER_MESSAGE } from "../../core/payments/tax-number";
import { PRICED_CHANGE_MESSAGES } from "../../core/registration/priced-changes";
import { capturedMail, cartChanges, carts, clubs, formElements, individuals, paymentAttempts, places, registrations, transactions } from "../../schema/d1";
import { cookieFrom, createUserWithPassword, db, worker } from "./auth-fixtures";
import { hostRequest } from "./fixtures";
import { createApp, issueToken } from "./oauth-fixtures";
import { createForm, get, post } from "./registration-fixtures";
import { withStripeFake } from "./stripe-fixtures";
import { CARD, changeTo, paidPerson, sessionOf } from "./change-fixtures";

const fake = withStripeFake();
type Form = Awaited<ReturnType<typeof createForm>>;

/** A card-taking form; `distance` is the paid answer of one new person in a cart of their own. */
async function cardForm(): Promise<Form> {
  return createForm({ stripeAccountId: `acct_${crypto.randomUUID().slice(0, 8)}` });
}

const personOf = async (id: string) => (await db().select().from(individuals).where(eq(individuals.id, id)))[0]!;
const cartOf = async (id: string) => (await db().select().from(carts).where(eq(carts.id, id)))[0]!;
const changesOf = (f: Form) => db().select().from(cartChanges).where(eq(cartChanges.registrationId, f.registration.id));
const mailsTo = async (cartId: string, subject: string) => {
  const cart = await cartOf(cartId);
  return (await db().select().from(capturedMail)).filter((m) => m.to === cart.email && m.subject === subject);
};
const poolsOf = async (personId: string, state = "taken") =>
  (
    await db()
      .select()
      .from(places)
      .where(and(eq(places.individualId, personId), eq(places.state, state)))
  )
    .map((p) => p.pool)
    .sort();

describe("another distance, dearer", { timeout: 60_000 }, () => {
  it("is paid by card (one page for a double click), made once even if the webhook comes twice, on the receipt and the audit trail", async () => {
    const f = await cardForm();
    const { cookie, personId, cartId } = await paidPerson(fake(), f, "5k");
    const form = await (await get(f.host, `${f.path}/receipt?change=${personId}&kind=edit`, cookie)).text();
    expect(form).toContain(`name="${f.ids.distance}"`);
    const before = await cartOf(cartId);
    const shareBefore = (await personOf(personId)).priceTotal!;
    const requestId = crypto.randomUUID();
    const replies = await Promise.all([0, 1].map(() => post(f.host, `${f.path}/receipt`, changeTo(f, personId, requestId, "10k"), cookie)));
    expect(replies.map((r) => r.status)).toEqual([302, 302]);
    const session = sessionOf(replies[0]!.headers.get("Location"))!;
    expect(sessionOf(replies[1]!.headers.get("Location"))).toBe(session);
    const [attempt] = await db().select().from(paymentAttempts).where(eq(paymentAttempts.checkoutSessionId, session));
    // 45.00 for 10 km less the 35.00 paid for 5 km (tier 2, untaxed).
    expect(attempt!.amount).toBe(1000);
    expect((await personOf(personId)).values[f.ids.distance]?.v).toBe("5k");

    expect((await fake().pay(session, CARD)).status).toBe(303);
    const completed = fake()
      .events.filter((e) => e.type === "checkout.session.completed")
      .at(-1)!;
    const replay = await fake().resend(completed.id);
    expect(replay.status).toBe(200);
    const person = await personOf(personId);
    expect(person.values[f.ids.distance]?.v).toBe("10k");
    expect(person.priceTotal).toBe(shareBefore + 1000);
    const after = await cartOf(cartId);
    expect(after.total).toBe(before.total! + 1000);
    expect((await changesOf(f)).map((c) => [c.kind, c.amount])).toEqual([["edit", 1000]]);
    const ledger = await db().select().from(transactions).where(eq(transactions.cartId, cartId));
    expect(ledger.filter((t) => t.type === "payment" && t.completionTime !== null).map((t) => t.amount)).toEqual([before.total, 1000]);
    // The place moved with the answer: 10 km's taken, 5 km's freed.
    expect(await poolsOf(personId)).toEqual([`el:${f.ids.distance}`, `opt:${f.ids.distance}:10k`]);
    const receipt = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    expect(receipt).toContain("10 km");
    expect(receipt).toContain("$45.00");
    await expect.poll(async () => (await mailsTo(cartId, "Registration changed: Spring Relay")).length, { timeout: 10_000 }).toBe(1);
    const again = await post(f.host, `${f.path}/receipt`, changeTo(f, personId, requestId, "10k"), cookie);
    expect(again.headers.get("Location")).toBe(`${f.path}/receipt?changed=1`);
    expect((await changesOf(f)).length).toBe(1);
  });
});

describe("another distance, cheaper", { timeout: 60_000 }, () => {
  it("is refunded under the policy once for a double submit, keeps the fee as a line, and mails once", async () => {
    const f = await cardForm();
    await db().update(registrations).set({ cancelRefundPercent: 100, cancelFee: 300 }).where(eq(registrations.id, f.registration.id));
    const { cookie, personId, cartId } = await paidPerson(fake(), f, "10k");
    const before = await cartOf(cartId);
    const shareBefore = (await personOf(personId)).priceTotal!;
    const requestId = crypto.randomUUID();
    const replies = await Promise.all([0, 1].map(() => post(f.host, `${f.path}/receipt`, changeTo(f, personId, requestId, "5k"), cookie)));
    expect(replies.map((r) => r.status)).toEqual([302, 302]);
    expect(replies[0]!.headers.get("Location")).toBe(`${f.path}/receipt?changed=1`);
    const person = await personOf(personId);
    expect(person.values[f.ids.distance]?.v).toBe("5k");
    // 10.00 less, 3.00 kept by the policy: 7.00 back, once.
    expect(fake().refunds.map((r) => r.amount)).toEqual([700]);
    const after = await cartOf(cartId);
    expect(after.total).toBe(before.total! - 1000 + 300);
    expect(after.pricing!.lines.at(-1)).toEqual({ type: "change_fee", individualId: personId, elementId: null, code: null, amount: 300 });
    expect(person.priceTotal).toBe(shareBefore - 1000 + 300);
    expect((await changesOf(f)).map((c) => [c.kind, c.amount])).toEqual([["edit", -700]]);
    expect(await poolsOf(personId)).toEqual([`el:${f.ids.distance}`, `opt:${f.ids.distance}:5k`]);
    const receipt = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    expect(receipt).toContain("Change fee (refund policy)");
    expect(receipt).toContain("$7.00");
    await expect.poll(async () => (await mailsTo(cartId, "Registration changed: Spring Relay")).length, { timeout: 10_000 }).toBe(1);
    // The refund's own mail is not sent again by the webhook nor anyone else.
    expect((await mailsTo(cartId, "Refund: Spring Relay")).length).toBe(0);
    // Sent again after it was made: the same answer, nothing more refunded.
    const again = await post(f.host, `${f.path}/receipt`, changeTo(f, personId, requestId, "5k"), cookie);
    expect(again.status).toBe(302);
    expect(fake().refunds).toHaveLength(1);
  });

  it("is refused where the registrant could not cancel, and nothing moves", async () => {
    const f = await cardForm();
    const { cookie, personId } = await paidPerson(fake(), f, "10k");
    const refused = await post(f.host, `${f.path}/receipt`, changeTo(f, personId, crypto.randomUUID(), "5k"), cookie);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(PRICED_CHANGE_MESSAGES.en.noRefunds.replaceAll("'", "&#x27;"));
    expect((await personOf(personId)).values[f.ids.distance]?.v).toBe("10k");
    expect(await changesOf(f)).toEqual([]);
  });
});

describe("a limited option added after checkout", { timeout: 120_000 }, () => {
  it("is held while the card page is open: concurrent adds for the last places sell exactly the limit; an expired page lets go", async () => {
    const f = await cardForm();
    const [distance] = await db().select().from(formElements).where(eq(formElements.id, f.ids.distance));
    const half = { id: "half", display: "Half marathon", price_1: 5000, price_2: 5000, price_3: 5000, limit: 2 };
    await db()
      .update(formElements)
      .set({ optionsList: [...distance!.optionsList, half] })
      .where(eq(formElements.id, f.ids.distance));
    const people: Awaited<ReturnType<typeof paidPerson>>[] = [];
    for (const name of ["Ada", "Bo", "Cy", "Di", "Ed"]) people.push(await paidPerson(fake(), f, "5k", name));
    const replies = await Promise.all(
      people.map((p, i) =>
        post(f.host, `${f.path}/receipt`, changeTo(f, p.personId, crypto.randomUUID(), "half", ["Ada", "Bo", "Cy", "Di", "Ed"][i]), p.cookie),
      ),
    );
    const sessions = replies.map((r) => sessionOf(r.headers.get("Location")));
    expect(sessions.filter(Boolean)).toHaveLength(2);
    for (const reply of replies.filter((r) => r.status !== 302)) {
      expect(reply.status).toBe(409);
      expect(await reply.text()).toContain("Sold out");
    }
    const held = await db()
      .select()
      .from(places)
      .where(and(eq(places.pool, `opt:${f.ids.distance}:half`), eq(places.state, "held")));
    expect(held).toHaveLength(2);

    // One page expires unpaid: its place goes back, and someone else may have it.
    const [first, second] = sessions.flatMap((s, i) => (s ? [{ session: s, person: people[i]! }] : []));
    await fake().expire(first!.session);
    const waiting = people.find((p, i) => !sessions[i])!;
    const retry = await post(f.host, `${f.path}/receipt`, changeTo(f, waiting.personId, crypto.randomUUID(), "half", "Zed"), waiting.cookie);
    const third = sessionOf(retry.headers.get("Location"));
    expect(third).not.toBeNull();
    // The one who let it go cannot now have it back: two pages are open for two places.
    const late = await post(f.host, `${f.path}/receipt`, changeTo(f, first!.person.personId, crypto.randomUUID(), "half"), first!.person.cookie);
    expect(late.status).toBe(409);

    for (const session of [second!.session, third!]) expect((await fake().pay(session, CARD)).status).toBe(303);
    const taken = await db()
      .select()
      .from(places)
      .where(and(eq(places.pool, `opt:${f.ids.distance}:half`), eq(places.state, "taken")));
    expect(taken).toHaveLength(2);
    expect(
      await db()
        .select()
        .from(places)
        .where(and(eq(places.pool, `opt:${f.ids.distance}:half`), eq(places.state, "held"))),
    ).toEqual([]);
    expect((await personOf(waiting.personId)).values[f.ids.distance]?.v).toBe("half");
  });
});

describe("garbage and the wrong cart", { timeout: 60_000 }, () => {
  it("answers 4xx and changes nothing", async () => {
    const f = await cardForm();
    const { cookie, personId } = await paidPerson(fake(), f, "5k");
    const other = await paidPerson(fake(), f, "5k", "Bo");
    const wrongPerson = await post(f.host, `${f.path}/receipt`, changeTo(f, other.personId, crypto.randomUUID(), "10k"), cookie);
    expect(wrongPerson.status).toBe(409);
    const badKind = await post(f.host, `${f.path}/receipt`, { ...changeTo(f, personId, crypto.randomUUID(), "10k"), kind: "steal" }, cookie);
    expect(badKind.status).toBe(400);
    const badChoice = await post(f.host, `${f.path}/receipt`, changeTo(f, personId, crypto.randomUUID(), "marathon-x".repeat(200)), cookie);
    expect(badChoice.status).toBe(400);
    const noCart = await post(f.host, `${f.path}/receipt`, changeTo(f, personId, crypto.randomUUID(), "10k"));
    expect(noCart.status).toBe(404);
    const forged = await post(
      f.host,
      `${f.path}/receipt?receipt=r1.${crypto.randomUUID()}.1.9999999999999.AAAA`,
      changeTo(f, personId, crypto.randomUUID(), "10k"),
    );
    expect(forged.status).toBe(404);
    expect((await personOf(personId)).values[f.ids.distance]?.v).toBe("5k");
    expect((await personOf(other.personId)).values[f.ids.distance]?.v).toBe("5k");
    expect(await changesOf(f)).toEqual([]);
  });
});

describe("a Quebec club's QST number", { timeout: 60_000 }, () => {
  it("is refused when malformed, written one way, and printed under the tax line in each language", async () => {
    const f = await createForm({ isStripe: false });
    const email = `qst-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const user = await createUserWithPassword(email, null, [{ type: "org_admin", clubId: f.club.id }]);
    const appId = await createApp({ scopes: "clubs" });
    const token = await issueToken(user.id, appId, "localhost", "clubs");
    const call = (body: unknown) =>
      worker.fetch(
        hostRequest("localhost", `/data-api/Club/${f.club.id}/`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const bad = await call({ qst_number: "123456789 RT0001" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain(QST_NUMBER_MESSAGE);
    expect((await call({ qst_number: "1234567890tq0001", tax_number: "123456789 RT0001" })).status).toBe(200);
    const [club] = await db().select().from(clubs).where(eq(clubs.id, f.club.id));
    expect(club!.qstNumber).toBe("1234567890 TQ0001");

    await db().update(registrations).set({ isBilingual: true }).where(eq(registrations.id, f.registration.id));
    const added = await post(f.host, f.path, {
      intent: "save-person",
      [f.ids.first]: "Ada",
      [f.ids.last]: "L",
      [f.ids.distance]: "5k",
      [f.ids.toque]: "on",
      [f.ids.colour]: "red",
    });
    const cookie = cookieFrom(added, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
    await post(f.host, `${f.path}/cart`, { intent: "continue", email: "qst@example.com" }, cookie);
    expect((await post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);
    const receipt = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    expect(receipt).toContain("Tax (13%), GST/HST no.: 123456789 RT0001");
    expect(receipt).toContain("QST no.: 1234567890 TQ0001");
    expect(await (await get(f.host, `${f.path}/receipt?lang=fr`, cookie)).text()).toContain("No de TVQ : 1234567890 TQ0001");
    const pdf = await get(f.host, `${f.path}/receipt.pdf`, cookie);
    expect(pdf.status).toBe(200);
  });
});
