// Changes after checkout (issue 24): a registrant corrects a paid person's details or transfers the entry from the
// receipt link; only fields that carry no money or limit change, once however often the form is sent, with the
// organiser's audit row and one mail.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { capturedMail, cartChanges, carts, individuals, paymentAttempts, registrations, transactions } from "../../schema/d1";
import { cookieFrom, createUserWithPassword, db, signIn } from "./auth-fixtures";
import { withStripeFake } from "./stripe-fixtures";
import { createForm, get, post } from "./registration-fixtures";

const fake = withStripeFake();
type Form = Awaited<ReturnType<typeof createForm>>;

/** A form with Ada on 10 km, paid by card on the fake (or, for a club that takes no cards, registered to pay by cheque). */
async function paidForm(transferFee: number | null = null, by: "card" | "cheque" = "card"): Promise<{ f: Form; cookie: string; personId: string }> {
  const f = await createForm(by === "card" ? { stripeAccountId: `acct_${crypto.randomUUID().slice(0, 8)}` } : { isStripe: false });
  await db().update(registrations).set({ transferFee }).where(eq(registrations.id, f.registration.id));
  const added = await post(f.host, f.path, { intent: "save-person", [f.ids.first]: "Ada", [f.ids.last]: "Runner", [f.ids.distance]: "10k" });
  const cookie = cookieFrom(added, `sl_cart_${f.registration.id.replaceAll("-", "")}`)!;
  await post(f.host, `${f.path}/cart`, { intent: "continue", email: by === "card" ? "ada@example.com" : "ada-cheque@example.com" }, cookie);
  const started = await post(f.host, `${f.path}/pay`, { intent: by === "card" ? "card" : "manual" }, cookie);
  expect(started.status).toBe(302);
  if (by === "card") {
    const session = /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(started.headers.get("Location") ?? "")![1]!;
    expect((await fake().pay(session, "4242 4242 4242 4242")).status).toBe(303);
  }
  const [person] = await db().select().from(individuals).where(eq(individuals.registrationId, f.registration.id));
  return { f, cookie, personId: person!.id };
}

const personOf = async (id: string) => (await db().select().from(individuals).where(eq(individuals.id, id)))[0]!;
const changesOf = (f: Form) => db().select().from(cartChanges).where(eq(cartChanges.registrationId, f.registration.id));
const mailsOf = async (subject: string) => (await db().select().from(capturedMail)).filter((m) => m.subject === subject);

describe("changing a paid person's details", { timeout: 30_000 }, () => {
  it("changes the name once for a double submit, keeps what was paid for, records it and mails once", async () => {
    const { f, cookie, personId } = await paidForm();
    const page = await (await get(f.host, `${f.path}/receipt?change=${personId}&kind=edit`, cookie)).text();
    expect(page).toContain('data-testid="person-change"');
    // The priced distance is on the change form: another one is paid or refunded for the difference (decision 0061).
    expect(page).toContain(`name="${f.ids.distance}"`);
    const before = (await mailsOf("Registration changed: Spring Relay")).length;

    const requestId = crypto.randomUUID();
    const fields = {
      intent: "change",
      kind: "edit",
      person: personId,
      request_id: requestId,
      [f.ids.first]: "Adah",
      [f.ids.last]: "Runner",
      [f.ids.distance]: "10k",
    };
    const replies = await Promise.all([post(f.host, `${f.path}/receipt`, fields, cookie), post(f.host, `${f.path}/receipt`, fields, cookie)]);
    expect(replies.map((r) => r.status)).toEqual([302, 302]);
    expect(replies[0]!.headers.get("Location")).toBe(`${f.path}/receipt?changed=1`);
    const person = await personOf(personId);
    expect(person.values[f.ids.first]?.v).toBe("Adah");
    expect(person.values[f.ids.distance]?.v).toBe("10k");
    const changes = await changesOf(f);
    expect(changes.map((c) => [c.kind, c.actor])).toEqual([["edit", "registrant"]]);
    expect(JSON.parse(changes[0]!.detail)).toMatchObject({ from: "Ada Runner", to: "Adah Runner", fields: [f.ids.first] });
    await expect.poll(async () => (await mailsOf("Registration changed: Spring Relay")).length - before, { timeout: 10_000 }).toBe(1);
    expect((await get(f.host, `${f.path}/receipt`, cookie).then((r) => r.text())).includes("Adah Runner")).toBe(true);

    // Sent again with nothing different: nothing to do.
    const same = await post(f.host, `${f.path}/receipt`, { ...fields, request_id: crypto.randomUUID() }, cookie);
    expect(same.status).toBe(400);
    expect(await same.text()).toContain("Nothing was changed.");
    // A required field left empty is the form's own message, and nothing is written.
    const blank = await post(f.host, `${f.path}/receipt`, { ...fields, [f.ids.first]: "", request_id: crypto.randomUUID() }, cookie);
    expect(blank.status).toBe(400);
    expect((await personOf(personId)).values[f.ids.first]?.v).toBe("Adah");
  });

  it("is closed once the form closes, and transfers only where the organiser allows them", async () => {
    const { f, cookie, personId } = await paidForm(null);
    const transfer = { intent: "change", kind: "transfer", person: personId, [f.ids.first]: "Bo", [f.ids.last]: "Stone" };
    const refused = await post(f.host, `${f.path}/receipt`, { ...transfer, request_id: crypto.randomUUID() }, cookie);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("This registration cannot be transferred online. Please contact the organiser.");
    await db()
      .update(registrations)
      .set({ closeTime: Date.now() - 1000 })
      .where(eq(registrations.id, f.registration.id));
    const closed = await post(f.host, `${f.path}/receipt`, { ...transfer, kind: "edit", request_id: crypto.randomUUID() }, cookie);
    expect(closed.status).toBe(409);
    expect(await closed.text()).toContain("Changes to this registration are closed. Please contact the organiser.");
    expect((await personOf(personId)).values[f.ids.first]?.v).toBe("Ada");
    expect(await changesOf(f)).toEqual([]);
  });

  it("transfers the entry to someone else: their details, the same paid entry, the audit trail and the mail", async () => {
    const { f, cookie, personId } = await paidForm(0);
    const blankForm = await (await get(f.host, `${f.path}/receipt?change=${personId}&kind=transfer`, cookie)).text();
    expect(blankForm).toContain("Enter the details of the person who takes this entry.");
    const reply = await post(
      f.host,
      `${f.path}/receipt`,
      {
        intent: "change",
        kind: "transfer",
        person: personId,
        request_id: crypto.randomUUID(),
        [f.ids.first]: "Bo",
        [f.ids.last]: "Stone",
        [f.ids.email]: "Bo@Example.com",
      },
      cookie,
    );
    expect(reply.status).toBe(302);
    // The new holder hears of it at the address they were given; the mail carries no link to the buyer's receipt.
    await expect
      .poll(async () => (await mailsOf("You are registered: Spring Relay")).filter((m) => m.to === "bo@example.com").length, { timeout: 10_000 })
      .toBe(1);
    const told = (await mailsOf("You are registered: Spring Relay")).find((m) => m.to === "bo@example.com")!;
    expect(told.text).toBe(
      `Ada Runner's entry in Spring Relay (${f.club.name}) was transferred to you, Bo Stone. For anything about the entry, contact ${f.club.name}.`,
    );
    const person = await personOf(personId);
    expect([person.values[f.ids.first]?.v, person.values[f.ids.last]?.v, person.values[f.ids.distance]?.v]).toEqual(["Bo", "Stone", "10k"]);
    expect(person.priceTotal).toBeGreaterThan(0);
    expect((await changesOf(f)).map((c) => c.kind)).toEqual(["transfer"]);
    await expect
      .poll(
        async () =>
          (await mailsOf("Registration transferred: Spring Relay")).some((m) =>
            m.text.includes("The entry of Ada Runner in Spring Relay was transferred to Bo Stone."),
          ),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
  });
});

describe("a transfer with a fee", { timeout: 60_000 }, () => {
  const transferOf = (f: Form, personId: string, requestId: string, first: string) => ({
    intent: "change",
    kind: "transfer",
    person: personId,
    request_id: requestId,
    [f.ids.first]: first,
    [f.ids.last]: "Stone",
  });
  const sessionOf = (location: string | null) => /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(location ?? "")![1]!;

  it("is paid by card first (one page for a double click), then made once, on the receipt as a line and in the ledger", async () => {
    const { f, cookie, personId } = await paidForm(1000);
    expect(await (await get(f.host, `${f.path}/receipt?change=${personId}&kind=transfer`, cookie)).text()).toContain(
      "Transferring costs $10.00, paid by card before the entry changes hands.",
    );
    const [before] = await db().select().from(carts).where(eq(carts.registrationId, f.registration.id));
    const requestId = crypto.randomUUID();
    const replies = await Promise.all([0, 1].map(() => post(f.host, `${f.path}/receipt`, transferOf(f, personId, requestId, "Bo"), cookie)));
    expect(replies.map((r) => r.status)).toEqual([302, 302]);
    const session = sessionOf(replies[0]!.headers.get("Location"));
    expect(sessionOf(replies[1]!.headers.get("Location"))).toBe(session);
    // Nothing changes hands before the fee is paid.
    expect((await personOf(personId)).values[f.ids.first]?.v).toBe("Ada");

    expect((await fake().pay(session, "4242 4242 4242 4242")).status).toBe(303);
    const person = await personOf(personId);
    expect([person.values[f.ids.first]?.v, person.values[f.ids.distance]?.v]).toEqual(["Bo", "10k"]);
    const [after] = await db().select().from(carts).where(eq(carts.registrationId, f.registration.id));
    expect(after!.total).toBe(before!.total! + 1000);
    expect(after!.pricing!.total).toBe(before!.pricing!.total + 1000);
    expect(after!.pricing!.lines.filter((l) => l.type === "transfer_fee")).toEqual([
      { type: "transfer_fee", individualId: personId, elementId: null, code: null, amount: 1000 },
    ]);
    expect((await changesOf(f)).map((c) => [c.kind, c.amount])).toEqual([["transfer", 1000]]);
    const ledger = await db().select().from(transactions).where(eq(transactions.cartId, after!.id));
    expect(ledger.filter((t) => t.type === "payment" && t.completionTime !== null).map((t) => t.amount)).toEqual([before!.total, 1000]);
    const receipt = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    expect(receipt).toContain("Transfer fee");
    expect(receipt).toContain("Bo Stone");
    await expect
      .poll(
        async () =>
          (await mailsOf("Registration transferred: Spring Relay")).filter((m) => m.text.includes("to Bo Stone.") && m.text.includes(f.registration.id)).length,
        { timeout: 10_000 },
      )
      .toBe(1);
    // The same form sent again after paying: done already, nothing more charged.
    const again = await post(f.host, `${f.path}/receipt`, transferOf(f, personId, requestId, "Bo"), cookie);
    expect(again.headers.get("Location")).toBe(`${f.path}/receipt?changed=1`);
    expect((await changesOf(f)).length).toBe(1);
  });

  it("is refunded whole when the person was changed in another window before the fee was paid", async () => {
    const { f, cookie, personId } = await paidForm(1000);
    const started = await post(f.host, `${f.path}/receipt`, transferOf(f, personId, crypto.randomUUID(), "Bo"), cookie);
    const session = sessionOf(started.headers.get("Location"));
    // Meanwhile, a free correction from another tab.
    const edit = await post(
      f.host,
      `${f.path}/receipt`,
      {
        intent: "change",
        kind: "edit",
        person: personId,
        request_id: crypto.randomUUID(),
        [f.ids.first]: "Adah",
        [f.ids.last]: "Runner",
        [f.ids.distance]: "10k",
      },
      cookie,
    );
    expect(edit.status).toBe(302);
    expect((await fake().pay(session, "4242 4242 4242 4242")).status).toBe(303);
    expect((await personOf(personId)).values[f.ids.first]?.v).toBe("Adah");
    expect(fake().refunds.filter((r) => r.amount === 1000)).toHaveLength(1);
    const [attempt] = await db().select().from(paymentAttempts).where(eq(paymentAttempts.checkoutSessionId, session));
    expect(attempt).toMatchObject({ status: "failed" });
    expect((await changesOf(f)).map((c) => c.kind)).toEqual(["edit"]);
  });
});

describe("adding a priced item after checkout", { timeout: 60_000 }, () => {
  it("offers what may be added, charges it (with its tax) by card before saving it, and puts it on the receipt", async () => {
    const { f, cookie, personId } = await paidForm();
    const form = await (await get(f.host, `${f.path}/receipt?change=${personId}&kind=edit`, cookie)).text();
    // The toque was not taken, so it may be added; the distance, already paid, may change too (decision 0061).
    expect(form).toContain(`name="${f.ids.toque}"`);
    expect(form).toContain(`name="${f.ids.distance}"`);
    const [before] = await db().select().from(carts).where(eq(carts.registrationId, f.registration.id));
    const shareBefore = (await personOf(personId)).priceTotal!;
    const requestId = crypto.randomUUID();
    const fields = {
      intent: "change",
      kind: "edit",
      person: personId,
      request_id: requestId,
      [f.ids.first]: "Ada",
      [f.ids.last]: "Runner",
      [f.ids.distance]: "10k",
      [f.ids.toque]: "on",
      [f.ids.colour]: "red",
    };
    const started = await post(f.host, `${f.path}/receipt`, fields, cookie);
    expect(started.status).toBe(302);
    const session = /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(started.headers.get("Location") ?? "")![1]!;
    // 20.00 and its 13% tax.
    const [attempt] = await db().select().from(paymentAttempts).where(eq(paymentAttempts.checkoutSessionId, session));
    expect(attempt!.amount).toBe(2260);
    expect((await personOf(personId)).values[f.ids.toque]?.v).not.toBe(true);

    expect((await fake().pay(session, "4242 4242 4242 4242")).status).toBe(303);
    const person = await personOf(personId);
    expect(person.values[f.ids.toque]?.v).toBe(true);
    expect(person.priceTotal).toBe(shareBefore + 2260);
    const [after] = await db().select().from(carts).where(eq(carts.registrationId, f.registration.id));
    expect(after!.total).toBe(before!.total! + 2260);
    expect(after!.pricing!.total).toBe(before!.pricing!.total + 2260);
    expect(after!.pricing!.lines.slice(before!.pricing!.lines.length)).toEqual([
      { type: "item", individualId: personId, elementId: f.ids.toque, code: null, amount: 2000 },
    ]);
    expect((await changesOf(f)).map((c) => [c.kind, c.amount])).toEqual([["edit", 2260]]);
    const receipt = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    expect(receipt).toContain("Toque");
    // Added once; the change form still offers it, now to take off (refunded under the policy).
    const again = await post(f.host, `${f.path}/receipt`, fields, cookie);
    expect(again.headers.get("Location")).toBe(`${f.path}/receipt?changed=1`);
    expect(fake().refunds).toEqual([]);
  });
});

describe("the organiser sends a receipt again", { timeout: 30_000 }, () => {
  it("once per click; with a new link, the links sent before stop opening the receipt", async () => {
    const { f } = await paidForm();
    const email = `finance-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUserWithPassword(email, "correct horse battery staple", [{ type: "registration_finance", clubId: f.club.id, scope: f.registration.id }]);
    const finance = await signIn(f.host, email, "correct horse battery staple");
    const [payment] = await db()
      .select()
      .from(transactions)
      .where(eq(transactions.registrationId, f.registration.id))
      .then((rows) => rows.filter((t) => t.type === "payment"));
    const receipts = async () => (await mailsOf("Receipt: Spring Relay")).filter((m) => m.to === "ada@example.com" && m.text.includes(f.registration.id));
    await expect.poll(async () => (await receipts()).length, { timeout: 10_000 }).toBe(1);
    const oldLink = new URL(/https?:\/\/\S+\/receipt\?receipt=\S+/.exec((await receipts())[0]!.text)![0]!);
    const page = `/registration/${f.registration.id}/admin/payments`;
    expect(await (await get(f.host, `${page}?resend=${payment!.id}`, finance)).text()).toContain("Send the receipt again");

    const requestId = crypto.randomUUID();
    const resend = () => post(f.host, `${page}?resend=${payment!.id}`, { intent: "resend", target: payment!.id, request_id: requestId }, finance);
    expect((await Promise.all([resend(), resend()])).map((r) => r.status)).toEqual([302, 302]);
    await expect.poll(async () => (await receipts()).length, { timeout: 10_000 }).toBe(2);
    expect((await get(f.host, oldLink.pathname + oldLink.search)).status).toBe(200);

    const relink = await post(f.host, `${page}?resend=${payment!.id}`, { intent: "relink", target: payment!.id, request_id: crypto.randomUUID() }, finance);
    expect(relink.headers.get("Location")).toContain("saved=relinked");
    await expect.poll(async () => (await receipts()).length, { timeout: 10_000 }).toBe(3);
    expect((await get(f.host, oldLink.pathname + oldLink.search)).status).toBe(404);
    const newest = (await receipts()).sort((a, b) => b.createdAt - a.createdAt)[0]!;
    const newLink = new URL(/https?:\/\/\S+\/receipt\?receipt=\S+/.exec(newest.text)![0]!);
    expect((await get(f.host, newLink.pathname + newLink.search)).status).toBe(200);
    expect((await changesOf(f)).map((c) => c.kind).sort()).toEqual(["relink", "resend"]);
  });
});

describe("a change with a price on a club that takes no cards", { timeout: 30_000 }, () => {
  it("is made at once, with what it costs owed to the club as a cheque to come; a double submit owes it once", async () => {
    const { f, cookie, personId } = await paidForm(1000, "cheque");
    const person = { id: personId };
    const [before] = await db().select().from(carts).where(eq(carts.registrationId, f.registration.id));

    const fields = { intent: "change", kind: "transfer", person: person!.id, request_id: crypto.randomUUID(), [f.ids.first]: "Bo", [f.ids.last]: "Stone" };
    const replies = await Promise.all([0, 1].map(() => post(f.host, `${f.path}/receipt`, fields, cookie)));
    expect(replies.map((r) => r.headers.get("Location"))).toEqual([`${f.path}/receipt?changed=1`, `${f.path}/receipt?changed=1`]);
    expect((await personOf(person!.id)).values[f.ids.first]?.v).toBe("Bo");
    const [after] = await db().select().from(carts).where(eq(carts.registrationId, f.registration.id));
    expect(after!.total).toBe(before!.total! + 1000);
    const owed = (await db().select().from(transactions).where(eq(transactions.cartId, after!.id))).filter((t) => t.type === "payment" && t.amount === 1000);
    expect(owed.map((t) => [t.provider, t.completionTime])).toEqual([["manual", null]]);
    expect((await changesOf(f)).map((c) => [c.kind, c.amount])).toEqual([["transfer", 1000]]);
    const receipt = await (await get(f.host, `${f.path}/receipt`, cookie)).text();
    expect(receipt).toContain("Transfer fee");
    expect(receipt).toContain("To pay the club by cash or cheque");
  });
});
