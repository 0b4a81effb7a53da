import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bankAccounts, carts, clubs, individuals, paymentAttempts, pendingBankAccounts, roles, transactions } from "../../schema/d1";
import { cookieFrom, createUserWithPassword, db, latestMailTo, signIn, worker } from "./auth-fixtures";
import { withStripeFake } from "./stripe-fixtures";
import { createForm, get, post } from "./registration-fixtures";

const PASSWORD = "correct horse battery staple";
const GOOD_CARD = "4242 4242 4242 4242";
const DECLINED_CARD = "4000000000000002";

const fake = withStripeFake();

type Form = Awaited<ReturnType<typeof createForm>>;

/** One person (10 km, $45.00 at tier 2, plus the $1.00 system fee) in a cart with an email, at the pay step. */
async function cartAtPay(f: Form, email = "ada@example.com"): Promise<string> {
  const first = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Ada", [f.ids.last]: "Lovelace", [f.ids.distance]: "10k" });
  const cookie = cookieFrom(first, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
  expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email }, cookie)).status).toBe(302);
  return cookie;
}

async function cartOf(f: Form) {
  const [cart] = await db().select().from(carts).where(eq(carts.registrationId, f.registration.id));
  return cart!;
}

async function ledgerOf(f: Form) {
  return db().select().from(transactions).where(eq(transactions.registrationId, f.registration.id)).orderBy(transactions.createdAt, transactions.id);
}

function sessionIdOf(location: string | null): string {
  const match = /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(location ?? "");
  expect(match, `a hosted Checkout address, not ${location}`).not.toBeNull();
  return match![1]!;
}

async function startCard(f: Form, cookie: string): Promise<string> {
  const started = await post(f.host, `${f.path}/pay`, { intent: "card" }, cookie);
  expect(started.status).toBe(302);
  return sessionIdOf(started.headers.get("Location"));
}

async function mailTo(email: string, subject: string) {
  // The receipt is sent after the response (waitUntil); give it a moment.
  for (let i = 0; i < 50; i++) {
    const mail = await latestMailTo(email);
    if (mail?.subject === subject) return mail;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return latestMailTo(email);
}

/** A Registration Form finance user of `f`, signed in on `host` (the form's own site unless said). */
async function financeUser(f: Form, host = f.host): Promise<string> {
  const email = `finance-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await createUserWithPassword(email, PASSWORD, [{ type: "registration_finance", clubId: f.club.id, scope: f.registration.id }]);
  return signIn(host, email, PASSWORD);
}

/** A refund as the payments page posts it, with the request id the confirm step carries. */
function refund(f: Form, cookie: string, transactionId: string, amount: string, requestId = crypto.randomUUID()) {
  return post(
    f.host,
    `/registration/${f.registration.id}/admin/payments?refund=${transactionId}`,
    { intent: "refund", target: transactionId, amount, request_id: requestId, note: "" },
    cookie,
  );
}

describe("card payments through Stripe Checkout (against the local fake)", () => {
  it("pays a cart: one completed payment, the system fee to the system payee, the cart and its person complete, a receipt mailed", async () => {
    const f = await createForm({ stripeAccountId: "acct_club1" });
    const cookie = await cartAtPay(f);
    const payPage = await (await get(f.host, `${f.path}/pay`, cookie)).text();
    expect(payPage).toContain("Pay $46.00 by card");
    const sessionId = await startCard(f, cookie);
    expect(fake().sessions.get(sessionId)?.amount_total).toBe(4600);

    const paid = await fake().pay(sessionId, GOOD_CARD);
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`http://${f.host}:8787${f.path}/done?session_id=${sessionId}`);
    expect(fake().events.map((e) => [e.type, e.deliveries.at(-1)?.status])).toEqual([
      ["payment_intent.succeeded", 200],
      ["checkout.session.completed", 200],
    ]);

    const cart = await cartOf(f);
    expect(cart).toMatchObject({ isComplete: true, total: 4600 });
    const [person] = await db().select().from(individuals).where(eq(individuals.cartId, cart.id));
    expect(person).toMatchObject({ isComplete: true, priceTotal: 4600 });
    expect(person!.paidAt).not.toBeNull();
    const ledger = await ledgerOf(f);
    const intentId = fake().sessions.get(sessionId)!.payment_intent;
    expect(
      ledger.map((t) => ({
        type: t.type,
        amount: t.amount,
        payee: t.payee,
        provider: t.provider,
        externalId: t.externalId,
        completed: t.completionTime !== null,
        isVoid: t.isVoid,
      })),
    ).toEqual([
      { type: "payment", amount: 4600, payee: f.club.id, provider: "stripe", externalId: intentId, completed: true, isVoid: false },
      { type: "z4fee", amount: 100, payee: "system", provider: "system", externalId: null, completed: true, isVoid: false },
    ]);
    // The charge was made on the club's connected account, with the system fee as the application fee.
    expect(fake().paymentIntents.get(intentId as string)).toMatchObject({ amount: 4600, application_fee_amount: 100 });

    const receipt = await mailTo("ada@example.com", "Receipt: Spring Relay");
    expect(receipt?.subject).toBe("Receipt: Spring Relay");
    expect(receipt?.text).toContain("Paid: $46.00");
    const link = new URL(/https?:\/\/\S+receipt\?receipt=\S+/.exec(receipt!.text)![0]);
    const page = await (await get(f.host, `${link.pathname}${link.search}`)).text();
    expect(page).toContain("Registration complete");
    expect(page).toMatch(/data-testid="receipt-paid">\$46.00</);

    // The return page finds the cart paid and shows the receipt; the form starts a new cart.
    const done = await get(f.host, `${f.path}/done?session_id=${sessionId}`, cookie);
    expect(done.headers.get("Location")).toBe(`${f.path}/receipt`);
    expect(await (await get(f.host, `${f.path}/pay`, cookie)).text()).not.toContain("Pay $46.00");
  });

  it("a declined card leaves the cart payable and says why; another card then pays it once", async () => {
    const f = await createForm({ stripeAccountId: "acct_club2" });
    const cookie = await cartAtPay(f, "bo@example.com");
    const sessionId = await startCard(f, cookie);
    const declined = await fake().pay(sessionId, DECLINED_CARD);
    expect(declined.status).toBe(402);
    expect(declined.html).toContain("Your card was declined.");
    expect(await cartOf(f)).toMatchObject({ isComplete: false });
    const [attempt] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.cartId, (await cartOf(f)).id));
    expect(attempt).toMatchObject({ status: "failed", failureMessage: "Your card was declined." });
    expect(await (await get(f.host, `${f.path}/pay`, cookie)).text()).toContain("Your last card payment did not go through: Your card was declined.");

    // Trying again reopens the same session, which the second card pays.
    expect(await startCard(f, cookie)).toBe(sessionId);
    expect((await fake().pay(sessionId, GOOD_CARD)).status).toBe(303);
    const payments = (await ledgerOf(f)).filter((t) => t.type === "payment");
    expect(payments).toHaveLength(1);
    expect(payments[0]!.completionTime).not.toBeNull();
    expect(await cartOf(f)).toMatchObject({ isComplete: true });
  });

  it("a decline on one cart leaves another cart's declined attempt as it was", async () => {
    const a = await createForm({ stripeAccountId: "acct_club8" });
    const b = await createForm({ stripeAccountId: "acct_club9" });
    await fake().pay(await startCard(a, await cartAtPay(a, "ja@example.com")), DECLINED_CARD);
    await fake().pay(await startCard(b, await cartAtPay(b, "ko@example.com")), "4000000000009995");
    const [first] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.cartId, (await cartOf(a)).id));
    const [second] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.cartId, (await cartOf(b)).id));
    expect(first).toMatchObject({ status: "failed", failureMessage: "Your card was declined." });
    expect(second).toMatchObject({ status: "failed", failureMessage: "Your card has insufficient funds." });
  });

  it("a cart changed after a card payment began closes the old payment page, so the old total cannot be paid as well", async () => {
    const f = await createForm({ stripeAccountId: "acct_club10" });
    const cookie = await cartAtPay(f, "lu@example.com");
    const old = await startCard(f, cookie);
    // Back to the form: a second person joins the cart.
    expect((await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Bo", [f.ids.last]: "Lovelace", [f.ids.distance]: "5k" }, cookie)).status).toBe(
      302,
    );
    const fresh = await startCard(f, cookie);
    expect(fresh).not.toBe(old);
    expect(fake().sessions.get(old)?.status).toBe("expired");
    expect((await fake().pay(old, GOOD_CARD)).status).not.toBe(303);
    await fake().pay(fresh, GOOD_CARD);
    const payments = (await ledgerOf(f)).filter((t) => t.type === "payment");
    // 45.00 + 35.00 + 2 × 1.00 system fee.
    expect(payments.map((p) => ({ amount: p.amount, isVoid: p.isVoid, completed: p.completionTime !== null }))).toEqual([
      { amount: 4600, isVoid: true, completed: false },
      { amount: 8200, isVoid: false, completed: true },
    ]);
    expect(await cartOf(f)).toMatchObject({ isComplete: true, total: 8200 });
  });

  it("changing the cart closes a payment page left open in another tab, and waits for one being paid", async () => {
    const f = await createForm({ stripeAccountId: "acct_club11" });
    const cookie = await cartAtPay(f, "mo@example.com");
    const old = await startCard(f, cookie);
    // The registrant adds a person without starting a new payment: the old page must not take the old total.
    expect((await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Bo", [f.ids.last]: "Lovelace", [f.ids.distance]: "5k" }, cookie)).status).toBe(
      302,
    );
    expect(fake().sessions.get(old)?.status).toBe("expired");
    expect((await fake().pay(old, GOOD_CARD)).status).not.toBe(303);
    expect((await ledgerOf(f)).filter((t) => t.type === "payment" && t.completionTime !== null)).toHaveLength(0);

    // Paid at Stripe, the webhook not yet here: a change now is refused, and the payment then completes the cart.
    const current = await startCard(f, cookie);
    fake().pause();
    expect((await fake().pay(current, GOOD_CARD)).status).toBe(303);
    const refused = await post(f.host, `${f.path}/cart`, { intent: "apply-codes", codes: "half" }, cookie);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("This cart is being paid right now. Reload the page in a moment to see your receipt.");
    const [person] = await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id));
    expect((await post(f.host, `${f.path}/cart`, { intent: "remove-person", person: person!.id }, cookie)).status).toBe(409);
    await fake().resume();
    // 45.00 + 35.00 + 2 × 1.00 system fee, both people still in the cart.
    expect(await cartOf(f)).toMatchObject({ isComplete: true, total: 8200 });
  });

  it("records on the cart the code uses its card payment was priced with; an attempt from before uses were recorded leaves them unknown", async () => {
    for (const older of [false, true]) {
      const f = await createForm({ stripeAccountId: `acct_uses_${older}` });
      const cookie = await cartAtPay(f, "uma@example.com");
      expect((await post(f.host, `${f.path}/cart`, { intent: "apply-codes", codes: "half" }, cookie)).status).toBe(302);
      const session = await startCard(f, cookie);
      const [attempt] = await db().select().from(paymentAttempts).where(eq(paymentAttempts.registrationId, f.registration.id));
      expect(attempt!.discountUses).toEqual({ HALF: 1 });
      if (older) await db().update(paymentAttempts).set({ discountUses: null }).where(eq(paymentAttempts.id, attempt!.id));
      await fake().pay(session, GOOD_CARD);
      // Unknown uses (null) count one per code the cart entered (carts.ts discountUsesOf).
      expect(await cartOf(f)).toMatchObject({ isComplete: true, discountUses: older ? null : { HALF: 1 } });
    }
  });

  it("a double click starts one Checkout Session and one attempt", async () => {
    const f = await createForm({ stripeAccountId: "acct_club3" });
    const cookie = await cartAtPay(f, "cy@example.com");
    const [one, two] = await Promise.all([
      post(f.host, `${f.path}/pay`, { intent: "card" }, cookie),
      post(f.host, `${f.path}/pay`, { intent: "card" }, cookie),
    ]);
    expect(sessionIdOf(one.headers.get("Location"))).toBe(sessionIdOf(two.headers.get("Location")));
    expect(fake().sessions.size).toBe(1);
    const cart = await cartOf(f);
    expect(await db().select().from(paymentAttempts).where(eq(paymentAttempts.cartId, cart.id))).toHaveLength(1);
    expect((await ledgerOf(f)).filter((t) => t.type === "payment")).toHaveLength(1);
  });

  it("a replayed webhook changes nothing", async () => {
    const f = await createForm({ stripeAccountId: "acct_club4" });
    const cookie = await cartAtPay(f, "di@example.com");
    const sessionId = await startCard(f, cookie);
    await fake().pay(sessionId, GOOD_CARD);
    const before = await ledgerOf(f);
    const completed = fake().events.find((e) => e.type === "checkout.session.completed")!;
    const replay = await fake().resend(completed.id);
    expect(replay.status).toBe(200);
    expect(replay.body).toBe("Already applied");
    expect(await ledgerOf(f)).toEqual(before);
  });

  it("refuses an event whose signature is not Stripe's", async () => {
    const response = await worker.fetch(
      new Request("http://localhost:8787/_payments/stripe/webhook", {
        method: "POST",
        headers: { "Stripe-Signature": "t=1,v1=deadbeef", "Content-Type": "application/json" },
        body: JSON.stringify({ id: "evt_forged", type: "checkout.session.completed" }),
      }),
    );
    expect(response.status).toBe(400);
  });

  it("events out of order: a decline reported after the success leaves the payment standing", async () => {
    const f = await createForm({ stripeAccountId: "acct_club5" });
    const cookie = await cartAtPay(f, "ed@example.com");
    const sessionId = await startCard(f, cookie);
    fake().pause();
    await fake().pay(sessionId, DECLINED_CARD);
    await fake().pay(sessionId, GOOD_CARD);
    const delivered = await fake().deliverQueued("reverse");
    expect(delivered.map((d) => d.status)).toEqual([200, 200, 200]);
    const [attempt] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.cartId, (await cartOf(f)).id));
    expect(attempt).toMatchObject({ status: "paid", failureMessage: null });
    expect(await cartOf(f)).toMatchObject({ isComplete: true, total: 4600 });
  });

  it("a partial then a full refund: refund status partial, then refunded, and nothing beyond", async () => {
    const f = await createForm({ stripeAccountId: "acct_club6" });
    const cookie = await cartAtPay(f, "fi@example.com");
    await fake().pay(await startCard(f, cookie), GOOD_CARD);
    const finance = await financeUser(f);
    const payment = (await ledgerOf(f)).find((t) => t.type === "payment")!;

    const requestId = crypto.randomUUID();
    expect((await refund(f, finance, payment.id, "20.00", requestId)).status).toBe(302);
    // The same confirm form posted twice (a double click) refunds once.
    expect((await refund(f, finance, payment.id, "20.00", requestId)).status).toBe(302);
    expect(fake().refunds.length).toBe(1);
    let page = await (await get(f.host, `/registration/${f.registration.id}/admin/payments`, finance)).text();
    expect(page).toContain("Partly refunded");

    const tooMuch = await refund(f, finance, payment.id, "26.01");
    expect(tooMuch.status).toBe(409);
    expect(await tooMuch.text()).toContain("The refund cannot be more than the 26.00 left on this payment.");
    expect((await refund(f, finance, payment.id, "26.00")).status).toBe(302);
    page = await (await get(f.host, `/registration/${f.registration.id}/admin/payments`, finance)).text();
    expect(page).toContain("Refunded");
    const refunds = (await ledgerOf(f)).filter((t) => t.type === "refund");
    expect(refunds.map((r) => r.amount).sort()).toEqual([2000, 2600]);
    expect(refunds.every((r) => r.parentTransaction === payment.id && r.externalId?.startsWith("re_"))).toBe(true);
    expect(fake().refunds.length).toBe(2);
    expect((await refund(f, finance, payment.id, "0.01")).status).toBe(409);
    expect((await mailTo("fi@example.com", "Refund: Spring Relay"))?.text).toContain("Refunded: $46.00");
  });

  it("voiding a payment in progress closes its Checkout page; the cart can be paid afresh", async () => {
    const f = await createForm({ stripeAccountId: "acct_club7" });
    const cookie = await cartAtPay(f, "gu@example.com");
    const sessionId = await startCard(f, cookie);
    const finance = await financeUser(f);
    const pending = (await ledgerOf(f)).find((t) => t.type === "payment")!;
    expect(pending.completionTime).toBeNull();
    const voided = await post(f.host, `/registration/${f.registration.id}/admin/payments?void=${pending.id}`, { intent: "void", target: pending.id }, finance);
    expect(voided.status).toBe(302);
    expect(fake().sessions.get(sessionId)?.status).toBe("expired");
    expect((await ledgerOf(f)).find((t) => t.id === pending.id)).toMatchObject({ isVoid: true });
    expect((await fake().pay(sessionId, GOOD_CARD)).status).not.toBe(303);
    expect(await cartOf(f)).toMatchObject({ isComplete: false });

    const fresh = await startCard(f, cookie);
    expect(fresh).not.toBe(sessionId);
    await fake().pay(fresh, GOOD_CARD);
    const payments = (await ledgerOf(f)).filter((t) => t.type === "payment");
    expect(payments.map((p) => ({ isVoid: p.isVoid, completed: p.completionTime !== null }))).toEqual([
      { isVoid: true, completed: false },
      { isVoid: false, completed: true },
    ]);
  });
});

describe("cash and cheque (the manual provider)", () => {
  it("registers the cart with the payment pending; finance records it received and the registrant is told", async () => {
    const f = await createForm({ isStripe: false });
    const cookie = await cartAtPay(f, "hal@example.com");
    const payPage = await (await get(f.host, `${f.path}/pay`, cookie)).text();
    expect(payPage).not.toContain("by card");
    expect(payPage).toContain("Register now, pay the club by cash or cheque");
    const registered = await post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie);
    expect(registered.headers.get("Location")).toBe(`${f.path}/receipt`);
    // A second click finds the cart registered already.
    expect((await post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);
    const receipt = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    // No card, no system fee: 45.00.
    expect(receipt).toMatch(/data-testid="receipt-due">\$45.00</);
    const [pending, ...others] = await ledgerOf(f);
    expect(others).toHaveLength(0);
    expect(pending).toMatchObject({ type: "payment", amount: 4500, provider: "manual", completionTime: null, isVoid: false });
    expect((await mailTo("hal@example.com", "Registration confirmed: Spring Relay"))?.text).toContain("To pay the club by cash or cheque: $45.00");

    const finance = await financeUser(f);
    const refused = await post(
      f.host,
      `/registration/${f.registration.id}/admin/payments?record=${pending!.id}`,
      { intent: "record", target: pending!.id, method: "gold" },
      finance,
    );
    expect(refused.status).toBe(400);
    const recorded = await post(
      f.host,
      `/registration/${f.registration.id}/admin/payments?record=${pending!.id}`,
      { intent: "record", target: pending!.id, method: "cheque", note: "Cheque 118" },
      finance,
    );
    expect(recorded.status).toBe(302);
    const [received] = await db()
      .select()
      .from(transactions)
      .where(and(eq(transactions.id, pending!.id)));
    expect(received).toMatchObject({ method: "cheque", note: "Cheque 118" });
    expect(received!.completionTime).not.toBeNull();
    expect((await mailTo("hal@example.com", "Payment received: Spring Relay"))?.text).toContain("Paid: $45.00");
  });

  it("two finance users refunding a cheque at once cannot return more than was paid", async () => {
    const f = await createForm({ isStripe: false });
    const cookie = await cartAtPay(f, "ivy@example.com");
    expect((await post(f.host, `${f.path}/pay`, { intent: "manual" }, cookie)).status).toBe(302);
    const finance = await financeUser(f);
    const [pending] = await ledgerOf(f);
    expect(
      (
        await post(
          f.host,
          `/registration/${f.registration.id}/admin/payments?record=${pending!.id}`,
          { intent: "record", target: pending!.id, method: "cheque", note: "" },
          finance,
        )
      ).status,
    ).toBe(302);
    // 45.00 received; two refunds of 30.00 sent together, each checked against the same 45.00 left.
    const [a, b] = await Promise.all([refund(f, finance, pending!.id, "30.00"), refund(f, finance, pending!.id, "30.00")]);
    expect([a.status, b.status].sort()).toEqual([302, 409]);
    const refused = a.status === 409 ? a : b;
    expect(await refused.text()).toContain("The refund cannot be more than the 15.00 left on this payment.");
    const refunds = (await ledgerOf(f)).filter((t) => t.type === "refund");
    expect(refunds.map((r) => r.amount)).toEqual([3000]);
  });

  it("keeps other clubs' finance users and registrants out of the payments page", async () => {
    const f = await createForm({ isStripe: false });
    const other = await createForm({ isStripe: false });
    const outsider = await financeUser(other, f.host);
    expect((await get(f.host, `/registration/${f.registration.id}/admin/payments`, outsider)).status).toBe(404);
    expect((await get(f.host, `/registration/${f.registration.id}/admin/payments`)).status).toBe(302);
  });
});

describe("bank accounts and payouts", () => {
  async function superAdmin(): Promise<string> {
    const email = `banker-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { roleIds } = await createUserWithPassword(email, PASSWORD, [{ type: "system_admin" }]);
    await db()
      .update(roles)
      .set({ config: { bankaccounts: true } })
      .where(eq(roles.id, roleIds[0]!));
    return signIn("admin.localhost", email, PASSWORD);
  }

  it("a club asks for a bank account, a System Administrator approves it, and a payout batch pays what the club is owed once", async () => {
    // A merchant club: the platform takes its card payments on the platform's own account and pays them out.
    const f = await createForm({ stripeAccountId: null });
    await db().update(clubs).set({ isMerchant: true }).where(eq(clubs.id, f.club.id));
    const email = `treasurer-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUserWithPassword(email, PASSWORD, [{ type: "financial_admin", clubId: f.club.id }]);
    const treasurer = await signIn(f.host, email, PASSWORD);
    const refused = await post(
      f.host,
      "/club/finance",
      { intent: "request-account", name: "Reg Club", email: "money@example.com", kind: "remittance", last4: "12a4" },
      treasurer,
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Enter the last four digits of the account number");
    expect(
      (
        await post(
          f.host,
          "/club/finance",
          { intent: "request-account", name: "Reg Club", email: "money@example.com", kind: "remittance", last4: "1234" },
          treasurer,
        )
      ).status,
    ).toBe(302);
    const [request] = await db().select().from(pendingBankAccounts).where(eq(pendingBankAccounts.clubId, f.club.id));

    const admin = await superAdmin();
    // A club's own finance user cannot approve it: the page is on the admin host only.
    expect((await post(f.host, "/_admin/bankaccounts", { intent: "approve", target: request!.id }, treasurer)).status).toBe(404);
    // Two administrators (or a double click) approving at once: one decides, one account is made.
    const both = await Promise.all([1, 2].map(() => post("admin.localhost", "/_admin/bankaccounts", { intent: "approve", target: request!.id }, admin)));
    expect(both.map((r) => r.status).sort()).toEqual([302, 409]);
    expect((await post("admin.localhost", "/_admin/bankaccounts", { intent: "deny", target: request!.id }, admin)).status).toBe(409);
    const accounts = await db().select().from(bankAccounts).where(eq(bankAccounts.clubId, f.club.id));
    expect(accounts).toHaveLength(1);
    const [account] = accounts;
    // The club hears of it at the address its request gave.
    expect((await latestMailTo("money@example.com"))!.subject).toMatch(/^Bank account approved for /);
    expect(account).toMatchObject({ displayName: "Reg Club ····1234", kind: "remittance" });
    expect((await db().select().from(clubs).where(eq(clubs.id, f.club.id)))[0]!.bankaccountId).toBe(account!.id);

    const cookie = await cartAtPay(f, "iv@example.com");
    const sessionId = await startCard(f, cookie);
    // On the platform's account: no Stripe-Account, no application fee.
    expect(fake().sessions.get(sessionId)).toBeDefined();
    await fake().pay(sessionId, GOOD_CARD);
    const payment = (await ledgerOf(f)).find((t) => t.type === "payment")!;
    expect((await refund(f, await financeUser(f), payment.id, "6.00")).status).toBe(302);

    const today = new Date().toISOString().slice(0, 10);
    const preview = await (await get("admin.localhost", `/_admin/bankaccounts?from=${today}&to=${today}`, admin)).text();
    // 46.00 paid − 6.00 refunded − 1.00 system fee = 39.00.
    expect(preview).toContain("Write payouts of $39.00");
    expect((await post("admin.localhost", "/_admin/bankaccounts", { intent: "pay-batch", from: today, to: today }, admin)).status).toBe(302);
    const remittances = (await ledgerOf(f)).filter((t) => t.type === "remittance");
    expect(remittances).toHaveLength(0); // remittances carry no form
    const [remittance] = await db()
      .select()
      .from(transactions)
      .where(and(eq(transactions.clubId, f.club.id), eq(transactions.type, "remittance")));
    expect(remittance).toMatchObject({ amount: 3900, payer: "system", payee: f.club.id });
    expect(remittance!.batchToTime! - remittance!.batchFromTime!).toBe(86_400_000);
    expect((await ledgerOf(f)).every((t) => t.batchToTime === remittance!.batchToTime)).toBe(true);
    // The same days again: nothing left to pay.
    expect((await post("admin.localhost", "/_admin/bankaccounts", { intent: "pay-batch", from: today, to: today }, admin)).status).toBe(409);
    const financePage = await (await get(f.host, "/club/finance", treasurer)).text();
    expect(financePage).toContain("$39.00");
  });
});
