// Self-service cancellation from the receipt (issue 24): under the form's policy, refunded through the way the
// cart paid, once however often it is sent, with the place freed and the organiser's audit trail written.
import { and, eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { capturedMail, cartChanges, carts, formElements, individuals, registrations } from "../../schema/d1";
import { RECEIPT_LINK_DAYS, revokeReceiptLinks, signReceiptLink } from "../../workers/services/receipt-links";
import { cookieFrom, db } from "./auth-fixtures";
import { withStripeFake } from "./stripe-fixtures";
import { createForm, get, post } from "./registration-fixtures";

const fake = withStripeFake();

type Form = Awaited<ReturnType<typeof createForm>>;

/** One person on 10 km (45.00 + the 1.00 system fee), paid by card; 10 km limited to one place. */
async function paidCart(f: Form, name: string): Promise<string> {
  const added = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: name, [f.ids.last]: "Runner", [f.ids.distance]: "10k" });
  expect(added.status).toBe(302);
  const cookie = cookieFrom(added, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
  await post(f.host, `${f.path}/cart`, { intent: "continue", email: `${name.toLowerCase()}@example.com` }, cookie);
  const started = await post(f.host, `${f.path}/pay`, { intent: "card" }, cookie);
  const session = /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(started.headers.get("Location") ?? "")![1]!;
  expect((await fake().pay(session, "4242 4242 4242 4242")).status).toBe(303);
  return cookie;
}

async function formWithPolicy(policy: { percent: number; fee: number; deadline: number | null }): Promise<Form> {
  const f = await createForm({ stripeAccountId: `acct_${crypto.randomUUID().slice(0, 8)}` });
  await db()
    .update(registrations)
    .set({ cancelRefundPercent: policy.percent, cancelFee: policy.fee, cancelDeadline: policy.deadline })
    .where(eq(registrations.id, f.registration.id));
  await db()
    .update(formElements)
    .set({ optionsList: [{ id: "10k", display: "10 km", price_1: 4000, price_2: 4500, price_3: 5000, limit: 1 }] })
    .where(eq(formElements.id, f.ids.distance));
  return f;
}

const personOf = async (f: Form) => (await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id)))[0]!;

describe("cancelling from the receipt", { timeout: 30_000 }, () => {
  it("refunds the policy's share through the card, once for a double submit, frees the place and records the change", async () => {
    const f = await formWithPolicy({ percent: 80, fee: 500, deadline: null });
    const cookie = await paidCart(f, "Ada");
    const receipt = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    // 80% of 46.00 is 36.80, less the 5.00 fee.
    expect(receipt).toContain("Cancelling refunds $31.80.");
    const person = await personOf(f);
    const requestId = crypto.randomUUID();
    const send = () => post(f.host, `${f.path}/receipt`, { intent: "cancel", person: person.id, request_id: requestId }, cookie);
    const replies = await Promise.all([send(), send()]);
    expect(replies.map((r) => r.status)).toEqual([302, 302]);
    expect(replies[0]!.headers.get("Location")).toBe(`${f.path}/receipt?cancelled=3180`);
    expect(fake().refunds.map((r) => r.amount)).toEqual([3180]);
    expect((await personOf(f)).isRemoved).toBe(true);
    // The receipt still lists them, as cancelled, and shows the refund.
    const after = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    expect(after).toContain('Ada Runner<span class="badge"> (cancelled)</span>');
    // Each line once: the processing fee is the person's, not repeated for the cart.
    expect(after.match(/<td>Processing fee<\/td>/g)).toHaveLength(1);
    expect(after).not.toContain("Cancel this registration");
    expect(await db().select().from(cartChanges).where(eq(cartChanges.registrationId, f.registration.id))).toMatchObject([
      { id: requestId, kind: "cancel", amount: 3180, actor: "registrant", individualId: person.id },
    ]);
    // Another tab's request: already cancelled, nothing more refunded.
    const again = await post(f.host, `${f.path}/receipt`, { intent: "cancel", person: person.id, request_id: crypto.randomUUID() }, cookie);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("This person&#x27;s registration is already cancelled.");
    expect(fake().refunds).toHaveLength(1);
    // The place is free again: the next registrant can take the one 10 km place.
    await paidCart(f, "Grace");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const mails = (await db().select().from(capturedMail)).filter((m) => m.to === "ada@example.com" && m.subject === "Cancellation: Spring Relay");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("Your cancellation for Spring Relay is done. $31.80 is being refunded.");
    // Stripe's refund webhooks for a refund we asked for send nothing more.
    expect((await db().select().from(capturedMail)).filter((m) => m.to === "ada@example.com" && m.subject.startsWith("Refund"))).toEqual([]);
  });

  it("after the deadline, or on a form without a policy, says so and changes nothing", async () => {
    const f = await formWithPolicy({ percent: 100, fee: 0, deadline: Date.now() - 1000 });
    const cookie = await paidCart(f, "Bo");
    const person = await personOf(f);
    expect(await (await get(f.host, `${f.path}/receipt`, cookie)).text()).not.toContain("Cancel this registration");
    const late = await post(f.host, `${f.path}/receipt`, { intent: "cancel", person: person.id, request_id: crypto.randomUUID() }, cookie);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("Cancellations for this registration are closed. Please contact the organiser.");
    await db().update(registrations).set({ cancelRefundPercent: null }).where(eq(registrations.id, f.registration.id));
    const none = await post(f.host, `${f.path}/receipt`, { intent: "cancel", person: person.id, request_id: crypto.randomUUID() }, cookie);
    expect(await none.text()).toContain("This registration cannot be cancelled online. Please contact the organiser.");
    expect(fake().refunds).toHaveLength(0);
    expect(
      await db()
        .select()
        .from(individuals)
        .where(and(eq(individuals.registrationId, f.registration.id), eq(individuals.isRemoved, true))),
    ).toHaveLength(0);
    // Garbage is a 400, not a 500.
    expect((await post(f.host, `${f.path}/receipt`, { intent: "cancel", person: person.id, request_id: "nope" }, cookie)).status).toBe(400);
  });
});

describe("the receipt link", { timeout: 30_000 }, () => {
  it("is signed, the same in every mail, expires, and can be revoked", async () => {
    const f = await formWithPolicy({ percent: 100, fee: 0, deadline: null });
    await paidCart(f, "Cy");
    const [cart] = await db().select().from(carts).where(eq(carts.registrationId, f.registration.id));
    let mailed;
    for (let i = 0; i < 100 && !mailed; i++) {
      mailed = (await db().select().from(capturedMail)).find((m) => m.to === "cy@example.com");
      if (!mailed) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (!mailed) throw new Error("no receipt mail");
    const link = new URL(/https?:\/\/\S+receipt\?receipt=\S+/.exec(mailed.text)![0]);
    const open = (token: string) => get(f.host, `${f.path}/receipt?receipt=${encodeURIComponent(token)}`);
    expect((await open(link.searchParams.get("receipt")!)).status).toBe(200);
    // A second mail's link opens it too: sending mail voids nothing.
    expect((await open(await signReceiptLink(env, cart!, Date.now()))).status).toBe(200);
    // A forged signature, another cart's id under this signature, and an expired link open nothing.
    const token = link.searchParams.get("receipt")!;
    expect((await open(`${token.slice(0, -2)}AA`)).status).toBe(404);
    expect((await open(token.replace(cart!.id, crypto.randomUUID()))).status).toBe(404);
    expect((await open(await signReceiptLink(env, cart!, Date.now() - RECEIPT_LINK_DAYS * 86_400_000 - 1))).status).toBe(404);
    // Revoked: every link sent before stops working.
    await revokeReceiptLinks(db(), cart!.id);
    expect((await open(token)).status).toBe(404);
  });
});
