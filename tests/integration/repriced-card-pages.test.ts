// A price changed while a card page is open (decision 0078): the registrant pays what the page showed them; the cart,
// the receipt, the organiser's report, a later change's difference and a cancellation's refund all start from what was
// paid, never from the new list price; a page opened after the change asks the new price, and none opens while the old
// one is being paid.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { carts, formElements, individuals, paymentAttempts, registrations, transactions } from "../../schema/d1";
import { cookieFrom, db, pageGet, signedInAs } from "./auth-fixtures";
import { CARD, mailsTo, sessionOf } from "./change-fixtures";
import { createForm, get, post } from "./registration-fixtures";
import { withStripeFake } from "./stripe-fixtures";

const fake = withStripeFake();
type Form = Awaited<ReturnType<typeof createForm>>;

/** The organiser sets the 10 km's price at every tier (tier 2 is in force). */
async function priceTenK(f: Form, cents: number) {
  const [distance] = await db().select().from(formElements).where(eq(formElements.id, f.ids.distance));
  const options = distance!.optionsList.map((o) => (o.id === "10k" ? { ...o, price_1: cents, price_2: cents, price_3: cents } : o));
  await db().update(formElements).set({ optionsList: options }).where(eq(formElements.id, f.ids.distance));
}

const person = (f: Form, distance: string, extra: Record<string, string> = {}) => ({
  [f.ids.first]: "Ada",
  [f.ids.last]: "Runner",
  [f.ids.distance]: distance,
  [f.ids.toque]: "on",
  [f.ids.colour]: "red",
  ...extra,
});
const payByCard = (f: Form, cookie: string) => post(f.host, `${f.path}/pay`, { intent: "card" }, cookie);
const refundsOf = async (cartId: string) =>
  (await db().select().from(transactions).where(eq(transactions.cartId, cartId))).filter((t) => t.type === "refund").map((t) => t.amount);

describe("a price changed while a card page is open", { timeout: 60_000 }, () => {
  it("charges, records, reports, changes and refunds at the amount paid; a page opened later asks the new price", async () => {
    const f = await createForm({ stripeAccountId: `acct_${crypto.randomUUID().slice(0, 8)}` });
    await db().update(registrations).set({ cancelRefundPercent: 100, cancelFee: 0 }).where(eq(registrations.id, f.registration.id));
    // Ada: 10 km $45.00, a toque $20.00 and its 13% tax $2.60, the processing fee $1.00: $68.60.
    const added = await post(f.host, f.path, { intent: "save-person", ...person(f, "10k") });
    const cookie = cookieFrom(added, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
    const email = `ada-${crypto.randomUUID().slice(0, 6)}@example.com`;
    expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email }, cookie)).status).toBe(302);
    const session = sessionOf((await payByCard(f, cookie)).headers.get("Location"));
    expect(fake().sessions.get(session!)!.amount_total).toBe(6860);

    // The organiser raises the 10 km to $55.00 while her page is open: the pay page now asks $78.60.
    await priceTenK(f, 5500);
    expect(await (await get(f.host, `${f.path}/pay`, cookie)).text()).toContain("$78.60");

    // She pays the page she was shown; Stripe's webhook is late. Pay pressed again meanwhile (twice) opens no second page.
    fake().pause();
    expect((await fake().pay(session!, CARD)).status).toBe(303);
    const again = await Promise.all([payByCard(f, cookie), payByCard(f, cookie)]);
    expect(again.map((r) => r.status)).toEqual([409, 409]);
    expect(await again[0]!.text()).toContain("This cart is being paid right now.");
    expect(fake().sessions.size).toBe(1);
    await fake().resume();

    // The cart, its lines and her share are what she paid.
    const [cart] = await db().select().from(carts).where(eq(carts.registrationId, f.registration.id));
    expect(cart!.isComplete).toBe(true);
    expect(cart!.total).toBe(6860);
    expect(cart!.pricing!.lines.find((l) => l.elementId === f.ids.distance)!.amount).toBe(4500);
    const [ada] = await db().select().from(individuals).where(eq(individuals.cartId, cart!.id));
    expect(ada!.priceTotal).toBe(6860);
    const attempts = await db().select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cart!.id));
    expect(attempts.map((a) => [a.status, a.amount])).toEqual([["paid", 6860]]);

    // The receipt (mail and page) reads $45.00 for the 10 km and $68.60 in all.
    const [mail] = await mailsTo(email);
    expect(mail!.text).toContain("    Distance: 10 km: $45.00");
    expect(mail!.text).toContain("$68.60");
    expect(mail!.text).not.toContain("$55.00");
    const receipt = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    expect(receipt).toContain("$45.00");
    expect(receipt).not.toContain("$55.00");

    // The organiser's report: the individual and cart totals are $68.60.
    const admin = await signedInAs("localhost", [{ type: "org_admin", clubId: f.club.id }]);
    const people = await (await pageGet("localhost", `/registration/${f.registration.id}/reports/all-individuals`, admin.cookie)).text();
    expect(people).toContain("68.60");
    expect(people).not.toContain("78.60");
    const cartsPage = await (await pageGet("localhost", `/registration/${f.registration.id}/reports/all-carts`, admin.cookie)).text();
    expect(cartsPage).toContain('<td class="num">68.60</td>');

    // A later change to the 5 km ($35.00) gives back $10.00 of the $45.00 paid, not $20.00 of the new $55.00.
    const requestId = crypto.randomUUID();
    const change = { intent: "change", kind: "edit", person: ada!.id, request_id: requestId, ...person(f, "5k") };
    const changed = await Promise.all([post(f.host, `${f.path}/receipt`, change, cookie), post(f.host, `${f.path}/receipt`, change, cookie)]);
    expect(changed.map((r) => r.status)).toEqual([302, 302]);
    expect(fake().refunds.map((r) => r.amount)).toEqual([1000]);
    const [afterChange] = await db().select().from(carts).where(eq(carts.id, cart!.id));
    expect(afterChange!.total).toBe(5860);
    expect(afterChange!.pricing!.lines.find((l) => l.elementId === f.ids.distance)!.amount).toBe(3500);

    // Cancelling refunds the rest of what was paid: $58.60, so $68.60 in all.
    const cancelled = await post(f.host, `${f.path}/receipt`, { intent: "cancel", person: ada!.id, request_id: crypto.randomUUID() }, cookie);
    expect(cancelled.status).toBe(302);
    expect(fake().refunds.map((r) => r.amount)).toEqual([1000, 5860]);
    expect((await refundsOf(cart!.id)).sort()).toEqual([1000, 5860]);
  });

  it("a page opened after the change asks the new price; a malformed pay request is a 400", async () => {
    const f = await createForm({ stripeAccountId: `acct_${crypto.randomUUID().slice(0, 8)}` });
    const added = await post(f.host, f.path, { intent: "save-person", ...person(f, "10k") });
    const cookie = cookieFrom(added, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
    expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email: "bo@example.com" }, cookie)).status).toBe(302);
    const first = sessionOf((await payByCard(f, cookie)).headers.get("Location"));
    await priceTenK(f, 5500);
    expect((await post(f.host, `${f.path}/pay`, { intent: "" }, cookie)).status).toBe(400);
    // Pay again (a double click): the old page is closed, one new page asks $78.60.
    const clicks = await Promise.all([payByCard(f, cookie), payByCard(f, cookie)]);
    const [second, twice] = clicks.map((r) => sessionOf(r.headers.get("Location")));
    expect(second).not.toBeNull();
    expect(twice).toBe(second);
    expect(second).not.toBe(first);
    expect(fake().sessions.get(first!)!.status).toBe("expired");
    expect(fake().sessions.get(second!)!.amount_total).toBe(7860);
    expect((await fake().pay(second!, CARD)).status).toBe(303);
    const [cart] = await db().select().from(carts).where(eq(carts.registrationId, f.registration.id));
    expect([cart!.total, cart!.pricing!.total]).toEqual([7860, 7860]);
  });

  it("a page Stripe closed unpaid whose expiry is not in yet does not stop a new page at the new price", async () => {
    const f = await createForm({ stripeAccountId: `acct_${crypto.randomUUID().slice(0, 8)}` });
    const added = await post(f.host, f.path, { intent: "save-person", ...person(f, "10k") });
    const cookie = cookieFrom(added, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
    expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email: "cy@example.com" }, cookie)).status).toBe(302);
    const first = sessionOf((await payByCard(f, cookie)).headers.get("Location"));
    fake().pause();
    await fake().expire(first!);
    await priceTenK(f, 5500);
    const next = await payByCard(f, cookie);
    expect(next.status).toBe(302);
    const second = sessionOf(next.headers.get("Location"));
    expect(fake().sessions.get(second!)!.amount_total).toBe(7860);
    // The late expiry of the first page leaves the new one's holds and attempt alone.
    await fake().resume();
    const attempts = await db().select().from(paymentAttempts).where(eq(paymentAttempts.registrationId, f.registration.id));
    expect(attempts.map((a) => [a.checkoutSessionId === second ? "second" : "first", a.status, a.amount]).sort()).toEqual([
      ["first", "expired", 6860],
      ["second", "open", 7860],
    ]);
  });
});
