// Limits under concurrency (issue 24): places held when a card payment starts and taken when a cart completes,
// enforced by the database, so twenty registrants paying at once for five places sell exactly five.
import { and, eq, sql } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { carts, formElements, individuals, paymentAttempts, places, transactions } from "../../schema/d1";
import { capturedMail } from "../../schema/d1";
import { cookieFrom, createUserWithPassword, db, signIn } from "./auth-fixtures";
import { routeStripeTo } from "../../workers/payments/stripe";
import { withStripeFake } from "./stripe-fixtures";
import { createForm, get, post } from "./registration-fixtures";

const GOOD_CARD = "4242 4242 4242 4242";
type Form = Awaited<ReturnType<typeof createForm>>;

const fake = withStripeFake();

/** The form with its 10 km option limited to `limit`. */
async function limitedForm(limit: number, options: { stripeAccountId?: string; isStripe?: boolean } = {}): Promise<Form> {
  const f = await createForm({ stripeAccountId: options.stripeAccountId ?? `acct_${crypto.randomUUID().slice(0, 8)}`, isStripe: options.isStripe });
  await db()
    .update(formElements)
    .set({
      optionsList: [
        { id: "5k", display: "5 km", price_1: 3000, price_2: 3500, price_3: 4000 },
        { id: "10k", display: "10 km", price_1: 4000, price_2: 4500, price_3: 5000, limit },
      ],
    })
    .where(eq(formElements.id, f.ids.distance));
  return f;
}

const cookieName = (f: Form) => `sl_cart_${f.registration.id.replaceAll("-", "")}`;

/** One person on 10 km in a new cart with an email, at the pay step. */
async function cartAtPay(f: Form, n: number): Promise<string> {
  const added = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: `Runner${n}`, [f.ids.last]: "Test", [f.ids.distance]: "10k" });
  expect(added.status).toBe(302);
  const cookie = cookieFrom(added, cookieName(f))!;
  expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email: `runner${n}@example.com` }, cookie)).status).toBe(302);
  return cookie;
}

function sessionIdOf(location: string | null): string {
  return /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(location ?? "")![1]!;
}

async function completeCarts(f: Form) {
  return db()
    .select()
    .from(carts)
    .where(and(eq(carts.registrationId, f.registration.id), eq(carts.isComplete, true)));
}

// Twenty carts made and paid through the Worker: seconds on a loaded CI machine, not milliseconds.
const SLOW = { timeout: 60_000 };

describe("places under concurrency", SLOW, () => {
  it("20 registrants paying by card at once for 5 places: 5 pages open, 15 are told it is sold out, 5 carts complete", async () => {
    const f = await limitedForm(5);
    const cookies: string[] = [];
    for (let n = 0; n < 20; n++) cookies.push(await cartAtPay(f, n));
    const started = await Promise.all(cookies.map((cookie) => post(f.host, `${f.path}/pay`, { intent: "card" }, cookie)));
    const opened = started.filter((r) => r.status === 302);
    const refused = started.filter((r) => r.status === 409);
    expect(opened).toHaveLength(5);
    expect(refused).toHaveLength(15);
    expect(await refused[0]!.text()).toContain("10 km: Sold out");
    for (const page of opened) expect((await fake().pay(sessionIdOf(page.headers.get("Location")), GOOD_CARD)).status).toBe(303);
    expect(await completeCarts(f)).toHaveLength(5);
    const taken = await db()
      .select()
      .from(places)
      .where(and(eq(places.registrationId, f.registration.id), eq(places.pool, `opt:${f.ids.distance}:10k`)));
    expect(taken.map((p) => p.state)).toEqual(["taken", "taken", "taken", "taken", "taken"]);
    // The form now says so to the next registrant, before they pay.
    const next = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Late", [f.ids.last]: "Comer", [f.ids.distance]: "10k" });
    expect(next.status).toBe(400);
    expect(await next.text()).toContain("Sold out");
  });

  it("20 registrants paying the club by cheque at once for 5 places: exactly 5 are registered, nothing half-written for the others", async () => {
    const f = await limitedForm(5, { isStripe: false });
    const cookies: string[] = [];
    for (let n = 0; n < 20; n++) cookies.push(await cartAtPay(f, n));
    const replies = await Promise.all(cookies.map((cookie) => post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie)));
    expect(replies.filter((r) => r.status === 302)).toHaveLength(5);
    const refused = replies.filter((r) => r.status === 409);
    expect(refused).toHaveLength(15);
    expect(await refused[0]!.text()).toContain("10 km: Sold out");
    expect(await completeCarts(f)).toHaveLength(5);
    // The refused carts wrote no payment, no attempt and no completed person.
    const payments = await db().select().from(transactions).where(eq(transactions.registrationId, f.registration.id));
    expect(payments.filter((t) => t.type === "payment")).toHaveLength(5);
    const paidPeople = await db()
      .select()
      .from(individuals)
      .where(and(eq(individuals.registrationId, f.registration.id), sql`${individuals.paidAt} IS NOT NULL`));
    expect(paidPeople).toHaveLength(5);
  });

  it("a hold that lapsed while the card was paid: the place went to another cart, so the payment is refunded whole and the cart stays open", async () => {
    const f = await limitedForm(1);
    const first = await cartAtPay(f, 1);
    const late = sessionIdOf((await post(f.host, `${f.path}/pay`, { intent: "card" }, first)).headers.get("Location"));
    // Its hold lapses (the registrant left the page open past its time) and someone else takes the place.
    await db()
      .update(places)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(places.registrationId, f.registration.id));
    const second = await cartAtPay(f, 2);
    const onTime = sessionIdOf((await post(f.host, `${f.path}/pay`, { intent: "card" }, second)).headers.get("Location"));
    expect((await fake().pay(onTime, GOOD_CARD)).status).toBe(303);
    expect((await fake().pay(late, GOOD_CARD)).status).toBe(303);

    expect(await completeCarts(f)).toHaveLength(1);
    const [attempt] = await db().select().from(paymentAttempts).where(eq(paymentAttempts.checkoutSessionId, late));
    expect(attempt).toMatchObject({ status: "failed", failureMessage: "10 km: Sold out. Your payment has been refunded in full." });
    expect(fake().refunds.map((r) => r.amount)).toEqual([4600]);
    const ledger = await db().select().from(transactions).where(eq(transactions.cartId, attempt!.cartId));
    expect(ledger.map((t) => [t.type, t.amount]).sort()).toEqual([
      ["payment", 4600],
      ["refund", 4600],
    ]);
    // The return page sends the registrant back to the pay page, which says why.
    const done = await get(f.host, `${f.path}/done?session_id=${late}`, first);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`${f.path}/pay`);
    expect(await (await get(f.host, `${f.path}/pay`, first)).text()).toContain("10 km: Sold out. Your payment has been refunded in full.");
  });

  it("a page Stripe refuses to open holds nothing: the registrant is told to try again, and the place stays free", async () => {
    const f = await limitedForm(1);
    const cookie = await cartAtPay(f, 1);
    // Stripe refuses the Checkout Session once (a 400 the SDK does not retry).
    routeStripeTo(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === "/v1/checkout/sessions" && (init?.method ?? "GET") === "POST")
        return new Response(JSON.stringify({ error: { type: "invalid_request_error", message: "Refused for the test" } }), {
          status: 400,
          headers: { "Content-Type": "application/json" },
        });
      return fake().fetch(input, init);
    });
    const refused = await post(f.host, `${f.path}/pay`, { intent: "card" }, cookie);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("The card payment could not be started. Please try again in a moment.");
    expect(await db().select().from(places).where(eq(places.registrationId, f.registration.id))).toEqual([]);
    routeStripeTo(fake().fetch);
    const other = await cartAtPay(f, 2);
    expect((await post(f.host, `${f.path}/pay`, { intent: "card" }, other)).status).toBe(302);
  });

  it("a page that expires frees its places at once", async () => {
    const f = await limitedForm(1);
    const first = await cartAtPay(f, 1);
    const session = sessionIdOf((await post(f.host, `${f.path}/pay`, { intent: "card" }, first)).headers.get("Location"));
    // While the first page is open the place is held: the next registrant is told before paying.
    const second = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Next", [f.ids.last]: "One", [f.ids.distance]: "10k" });
    expect(second.status).toBe(400);
    expect(await second.text()).toContain("Sold out");
    await fake().expire(session);
    const third = await cartAtPay(f, 3);
    const started = await post(f.host, `${f.path}/pay`, { intent: "card" }, third);
    expect(started.status).toBe(302);
  });
});

describe("double submits change nothing the second time", SLOW, () => {
  const person = (f: Form, key: string) => ({ intent: "save-person", submission: key, [f.ids.first]: "Ada", [f.ids.last]: "Lovelace", [f.ids.distance]: "5k" });

  it("the first add-person form sent twice at once: one cart, one person, and both answers carry the same cart", async () => {
    const f = await createForm();
    const key = "k".repeat(32);
    const [a, b] = await Promise.all([post(f.host, f.path, person(f, key)), post(f.host, f.path, person(f, key))]);
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(cookieFrom(a, cookieName(f))).toBe(cookieFrom(b, cookieName(f)));
    expect(await db().select().from(carts).where(eq(carts.registrationId, f.registration.id))).toHaveLength(1);
    expect(await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id))).toHaveLength(1);
  });

  it("a second person's form sent twice, one after the other: added once; the same page sent with other answers is another person", async () => {
    const f = await createForm();
    const first = await post(f.host, f.path, person(f, "a".repeat(32)));
    const cookie = cookieFrom(first, cookieName(f))!;
    const second = { ...person(f, "b".repeat(32)), [f.ids.first]: "Grace", [f.ids.last]: "Hopper" };
    expect((await post(f.host, f.path, second, cookie)).status).toBe(302);
    expect((await post(f.host, f.path, second, cookie)).status).toBe(302);
    expect(await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id))).toHaveLength(2);
    expect((await post(f.host, f.path, { ...second, [f.ids.first]: "Alan", [f.ids.last]: "Turing" }, cookie)).status).toBe(302);
    expect(await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id))).toHaveLength(3);
  });

  it("the form page carries a fresh key each time it is shown", async () => {
    const f = await createForm();
    const keyOf = async () => /name="submission" value="([^"]+)"/.exec(await (await get(f.host, f.path)).text())?.[1];
    const [one, two] = [await keyOf(), await keyOf()];
    expect(one).toMatch(/^[A-Za-z0-9_-]{24,64}$/);
    expect(two).not.toBe(one);
  });
});

describe("migration 0013 counts what complete carts took before places existed", SLOW, () => {
  it("backfills options, multi-options, fields with a limit and code uses (recorded or one per code entered)", async () => {
    const f = await limitedForm(5, { isStripe: false });
    const cartId = crypto.randomUUID();
    const legacyId = crypto.randomUUID();
    const base = { registrationId: f.registration.id, clubId: f.club.id, siteId: f.site.id, fieldMtimes: {} };
    await db()
      .insert(carts)
      .values([
        { ...base, id: cartId, isComplete: true, completedAt: 1, discountCodes: "HALF", discountUses: { HALF: 2 } },
        { ...base, id: legacyId, isComplete: true, completedAt: 1, discountCodes: "HALF OTHER", discountUses: null },
      ]);
    await db()
      .insert(individuals)
      .values([
        { ...base, id: crypto.randomUUID(), cartId, isComplete: true, values: { [f.ids.distance]: { v: "10k", p: 4500 }, [f.ids.first]: { v: "Ada", p: 0 } } },
        { ...base, id: crypto.randomUUID(), cartId, isComplete: true, values: { [f.ids.distance]: { v: "5k", p: 3500 } } },
      ]);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0013"))!;
    // The backfill statements are INSERT OR IGNORE; run again here over rows written without places.
    for (const statement of migration.queries.filter((q) => /INSERT OR IGNORE/.test(q))) await env.DB.prepare(statement).run();
    const rows = await db().select().from(places).where(eq(places.registrationId, f.registration.id));
    const count = (pool: string) => rows.filter((r) => r.pool === pool && r.state === "taken").length;
    expect(count(`opt:${f.ids.distance}:10k`)).toBe(1);
    expect(count(`opt:${f.ids.distance}:5k`)).toBe(1);
    expect(count(`el:${f.ids.distance}`)).toBe(2);
    // A text field without a limit takes no place.
    expect(count(`el:${f.ids.first}`)).toBe(0);
    expect(count("code:HALF")).toBe(3);
    expect(count("code:OTHER")).toBe(1);
  });
});

describe("refunds tell the registrant once", SLOW, () => {
  const PASSWORD = "correct horse battery staple";
  const refundMails = async (email: string) => (await db().select().from(capturedMail)).filter((m) => m.to === email && m.subject.startsWith("Refund:"));
  /** Mail goes out after the response (waitUntil); wait until `n` have arrived, then a little longer for any extra. */
  async function settledMails(email: string, n: number) {
    for (let i = 0; i < 100 && (await refundMails(email)).length < n; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    return refundMails(email);
  }

  async function paidByCard(f: Form, n: number) {
    const cookie = await cartAtPay(f, n);
    const started = await post(f.host, `${f.path}/pay`, { intent: "card" }, cookie);
    await fake().pay(sessionIdOf(started.headers.get("Location")), GOOD_CARD);
    const [payment] = await db()
      .select()
      .from(transactions)
      .where(and(eq(transactions.registrationId, f.registration.id), eq(transactions.type, "payment")));
    return payment!;
  }

  it("a refund confirmed twice at once refunds once and sends one mail", async () => {
    const f = await limitedForm(10);
    const payment = await paidByCard(f, 7);
    const email = `finance-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUserWithPassword(email, PASSWORD, [{ type: "registration_finance", clubId: f.club.id, scope: f.registration.id }]);
    const finance = await signIn(f.host, email, PASSWORD);
    const requestId = crypto.randomUUID();
    const send = () =>
      post(
        f.host,
        `/registration/${f.registration.id}/admin/payments?refund=${payment.id}`,
        { intent: "refund", target: payment.id, amount: "10.00", request_id: requestId, note: "" },
        finance,
      );
    const replies = await Promise.all([send(), send()]);
    expect(replies.map((r) => r.status)).toEqual([302, 302]);
    expect(fake().refunds).toHaveLength(1);
    expect(await settledMails("runner7@example.com", 1)).toHaveLength(1);
  });

  it("a refund made on Stripe's side is recorded from its webhooks once, with one mail", async () => {
    const f = await limitedForm(10);
    const payment = await paidByCard(f, 8);
    const [attempt] = await db().select().from(paymentAttempts).where(eq(paymentAttempts.cartId, payment.cartId!));
    const made = await fake().fetch("http://127.0.0.1:12111/v1/refunds", {
      method: "POST",
      headers: { Authorization: "Bearer sk_test_local", "Content-Type": "application/x-www-form-urlencoded", "Stripe-Account": attempt!.stripeAccount! },
      body: `payment_intent=${payment.externalId}&amount=1500`,
    });
    expect(made.status).toBe(200);
    // refund.created and charge.refunded both arrived; the refund is written once.
    expect(
      fake()
        .events.map((e) => e.type)
        .slice(-2),
    ).toEqual(["refund.created", "charge.refunded"]);
    const refunds = await db()
      .select()
      .from(transactions)
      .where(and(eq(transactions.registrationId, f.registration.id), eq(transactions.type, "refund")));
    expect(refunds.map((r) => [r.amount, r.parentTransaction])).toEqual([[1500, payment.id]]);
    const mails = await settledMails("runner8@example.com", 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("Refunded: $15.00");
  });
});
