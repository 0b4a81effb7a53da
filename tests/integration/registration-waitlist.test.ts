// Waitlists (issue 24): a full option offers "join the waitlist"; a freed place is offered to the first person
// waiting, held for them (nobody else can take it), opened from the mailed link, and paid like any cart.
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { capturedMail, carts, formElements, places, registrations, waitlistEntries } from "../../schema/d1";
import { offerFreedPlaces } from "../../workers/services/waitlists";
import { env } from "cloudflare:workers";
import { cookieFrom, db } from "./auth-fixtures";
import { withStripeFake } from "./stripe-fixtures";
import { createForm, get, post } from "./registration-fixtures";

const fake = withStripeFake();
type Form = Awaited<ReturnType<typeof createForm>>;
const GOOD_CARD = "4242 4242 4242 4242";
const cookieName = (f: Form) => `sl_cart_${f.registration.id.replaceAll("-", "")}`;

/** A card-paying form whose 10 km has one place, with a waitlist offering places for 24 hours and cancellations at 100%. */
async function fullForm(): Promise<Form> {
  const f = await createForm({ stripeAccountId: `acct_${crypto.randomUUID().slice(0, 8)}` });
  await db().update(registrations).set({ waitlistOfferHours: 24, cancelRefundPercent: 100, cancelFee: 0 }).where(eq(registrations.id, f.registration.id));
  await db()
    .update(formElements)
    .set({
      optionsList: [
        { id: "5k", display: "5 km", price_1: 3000, price_2: 3500, price_3: 4000 },
        { id: "10k", display: "10 km", price_1: 4000, price_2: 4500, price_3: 5000, limit: 1 },
      ],
    })
    .where(eq(formElements.id, f.ids.distance));
  return f;
}

const person = (f: Form, first: string) => ({ intent: "save-person", [f.ids.first]: first, [f.ids.last]: "Runner", [f.ids.distance]: "10k" });

/** Pays for the cart the cookie opens, by card on the fake's page. */
async function payByCard(f: Form, cookie: string, email: string): Promise<void> {
  expect((await post(f.host, `${f.path}/cart`, { intent: "continue", email }, cookie)).status).toBe(302);
  const started = await post(f.host, `${f.path}/pay`, { intent: "card" }, cookie);
  expect(started.status).toBe(302);
  const session = /\/c\/pay\/(cs_[A-Za-z0-9_]+)/.exec(started.headers.get("Location") ?? "")![1]!;
  expect((await fake().pay(session, GOOD_CARD)).status).toBe(303);
}

async function paidCart(f: Form, first: string): Promise<string> {
  const added = await post(f.host, f.path, person(f, first));
  expect(added.status).toBe(302);
  const cookie = cookieFrom(added, cookieName(f))!;
  await payByCard(f, cookie, `${first.toLowerCase()}@example.com`);
  return cookie;
}

const join = (f: Form, first: string, email: string, submission: string) =>
  post(f.host, f.path, { ...person(f, first), waitlist: "join", waitlist_email: email, submission });

const entriesOf = (f: Form) =>
  db().select().from(waitlistEntries).where(eq(waitlistEntries.registrationId, f.registration.id)).orderBy(waitlistEntries.position);
const mailsTo = async (to: string) => (await db().select().from(capturedMail)).filter((m) => m.to === to);
/** The offer mailed to `to` for this form (every test's form is called Spring Relay, so the link tells them apart). */
const offerLinkOf = async (f: Form, to: string) => {
  const mail = (await mailsTo(to)).find((m) => m.subject === "A place is free: Spring Relay" && m.text.includes(f.registration.id));
  expect(mail?.text).toContain("has opened and is held for you until");
  const url = new URL(/https?:\/\/\S+\/offer\?cart=\S+/.exec(mail!.text)![0]!);
  return url.pathname + url.search;
};

describe("joining a waitlist", { timeout: 30_000 }, () => {
  it("a full option offers the waitlist; a double click joins once; the registrant is told their place in it", async () => {
    const f = await fullForm();
    await paidCart(f, "Ada");
    const refused = await post(f.host, f.path, person(f, "Ben"));
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain("10 km is full. Join the waitlist and we will email you if a place opens.");
    expect(page).toContain('data-testid="waitlist-box"');

    const submission = "w".repeat(30);
    const replies = await Promise.all([join(f, "Ben", "Ben@Example.com", submission), join(f, "Ben", "Ben@Example.com", submission)]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    for (const reply of replies)
      expect(await reply.text()).toContain("You are number 1 on the waitlist for 10 km. We will email ben@example.com if a place opens.");
    const entries = await entriesOf(f);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ state: "waiting", email: "ben@example.com", name: "Ben Runner", pools: [`opt:${f.ids.distance}:10k`] });
    expect((await mailsTo("ben@example.com")).map((m) => m.subject)).toEqual(["You are on the waitlist: Spring Relay"]);

    // Another address is second; the same address and wish again (a new page) is still the one entry.
    expect(await (await join(f, "Cy", "cy@example.com", "c".repeat(30))).text()).toContain("You are number 2 on the waitlist for 10 km.");
    expect(await (await join(f, "Ben", "ben@example.com", "b".repeat(30))).text()).toContain("You are number 1 on the waitlist");
    expect(await entriesOf(f)).toHaveLength(2);
  });

  it("refuses a bad address or other mistakes without writing anything, and adds the person to the cart when a place is free", async () => {
    const f = await fullForm();
    const free = await join(f, "Dee", "dee@example.com", "d".repeat(30));
    // Nothing is full: the person goes into a cart as if "Add to cart" had been pressed.
    expect(free.status).toBe(302);
    expect(free.headers.get("Location")).toBe(`${f.path}/cart`);
    expect(await entriesOf(f)).toHaveLength(0);

    await payByCard(f, cookieFrom(free, cookieName(f))!, "dee@example.com");
    const badEmail = await join(f, "Eve", "not-an-address", "e".repeat(30));
    expect(badEmail.status).toBe(400);
    expect(await badEmail.text()).toContain("Enter the email address we should write to when a place opens");
    const noName = await post(f.host, f.path, { ...person(f, ""), waitlist: "join", waitlist_email: "eve@example.com", submission: "f".repeat(30) });
    expect(noName.status).toBe(400);
    expect(await entriesOf(f)).toHaveLength(0);

    // A script joining over and over to mail a stranger is stopped after 5 mails to one address in 10 minutes.
    const tries = [];
    for (let n = 0; n < 6; n++) tries.push(await join(f, "Eve", "target@example.com", `${n}`.repeat(30)));
    expect(tries.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await tries[5]!.text()).toContain("Too many requests came from your network. Please wait a few minutes and try again.");

    // With the waitlist off, a full option is only "Sold out".
    await db().update(registrations).set({ waitlistOfferHours: null }).where(eq(registrations.id, f.registration.id));
    const off = await post(f.host, f.path, person(f, "Fay"));
    expect(await off.text()).not.toContain("waitlist-box");
  });
});

describe("offering a freed place", { timeout: 60_000 }, () => {
  it("a cancellation offers the place to the first person waiting, held so nobody else can take it; their link opens a cart they pay for", async () => {
    const f = await fullForm();
    const ada = await paidCart(f, "Ada");
    await join(f, "Ben", "ben@example.com", "b".repeat(30));
    await join(f, "Cy", "cy@example.com", "c".repeat(30));

    // Ada cancels from her receipt: the place frees, and the sweep that follows offers it to Ben.
    const [ada1] = await db()
      .select()
      .from(carts)
      .where(and(eq(carts.registrationId, f.registration.id), eq(carts.isComplete, true)));
    const receipt = await (await get(f.host, `${f.path}/receipt`, ada)).text();
    const adaPerson = /name="person" value="([^"]+)"/.exec(receipt)![1]!;
    expect((await post(f.host, `${f.path}/receipt`, { intent: "cancel", person: adaPerson, request_id: crypto.randomUUID() }, ada)).status).toBe(302);
    await vi.waitFor(async () => expect((await entriesOf(f)).map((e) => e.state)).toEqual(["offered", "waiting"]), { timeout: 10_000, interval: 50 });
    expect(ada1).toBeDefined();

    const [ben, cy] = await entriesOf(f);
    expect(ben!.offerExpiresAt! - ben!.offeredAt!).toBe(24 * 3_600_000);
    const held = await db()
      .select()
      .from(places)
      .where(and(eq(places.cartId, ben!.offerCartId!), eq(places.state, "held")));
    expect(held.map((p) => p.pool)).toEqual([`opt:${f.ids.distance}:10k`]);
    // The place is Ben's for now: someone else is told it is full (and may wait behind Cy).
    expect(await (await post(f.host, f.path, person(f, "Gus"))).text()).toContain("10 km is full.");
    // A second sweep (the cron, another page view) offers nothing more: there is still one place.
    expect(await offerFreedPlaces(env, db(), f.registration.id, Date.now())).toBe(0);
    expect(cy!.state).toBe("waiting");

    const link = await offerLinkOf(f, "ben@example.com");
    const opened = await get(f.host, link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe(`${f.path}/cart`);
    const benCookie = cookieFrom(opened, cookieName(f))!;
    const cart = await (await get(f.host, `${f.path}/cart`, benCookie)).text();
    expect(cart).toContain("A place is held for you until");
    expect(cart).toContain("Ben Runner");

    await payByCard(f, benCookie, "ben@example.com");
    await offerFreedPlaces(env, db(), f.registration.id, Date.now());
    expect((await entriesOf(f)).map((e) => e.state)).toEqual(["accepted", "waiting"]);
    // The link now says the place is taken.
    expect(await (await get(f.host, link)).text()).toContain("You have already taken this place.");
  });

  it("an offer that lapses goes to the next person; the lapsed link says so; two sweeps at once offer the place once", async () => {
    const f = await fullForm();
    const ada = await paidCart(f, "Ada");
    await join(f, "Ben", "ben@example.com", "b".repeat(30));
    await join(f, "Cy", "cy@example.com", "c".repeat(30));
    const receipt = await (await get(f.host, `${f.path}/receipt`, ada)).text();
    const adaPerson = /name="person" value="([^"]+)"/.exec(receipt)![1]!;
    await post(f.host, `${f.path}/receipt`, { intent: "cancel", person: adaPerson, request_id: crypto.randomUUID() }, ada);
    await vi.waitFor(async () => expect((await entriesOf(f))[0]!.state).toBe("offered"), { timeout: 10_000, interval: 50 });

    // A day later Ben has not paid: at once, two sweeps (the cron and a page view) run.
    const later = Date.now() + 24 * 3_600_000 + 1;
    const offered = await Promise.all([offerFreedPlaces(env, db(), f.registration.id, later), offerFreedPlaces(env, db(), f.registration.id, later)]);
    expect(offered.reduce((a, b) => a + b, 0)).toBe(1);
    const [ben, cy] = await entriesOf(f);
    expect([ben!.state, cy!.state]).toEqual(["expired", "offered"]);
    const live = await db()
      .select()
      .from(places)
      .where(and(eq(places.registrationId, f.registration.id), eq(places.state, "held")));
    expect(live.filter((p) => p.expiresAt! > later).map((p) => p.cartId)).toEqual([cy!.offerCartId]);
    // Ben's link, followed after his offer lapsed.
    const lapsed = await get(f.host, await offerLinkOf(f, "ben@example.com"));
    expect(lapsed.status).toBe(410);
    expect(await lapsed.text()).toContain("This offer ended on");
  });

  it("a person leaves from the link in their mail; the place held for them goes to the next person", async () => {
    const f = await fullForm();
    const ada = await paidCart(f, "Ada");
    await join(f, "Ben", "ben-leaves@example.com", "b".repeat(30));
    await join(f, "Cy", "cy-stays@example.com", "c".repeat(30));
    const receipt = await (await get(f.host, `${f.path}/receipt`, ada)).text();
    const adaPerson = /name="person" value="([^"]+)"/.exec(receipt)![1]!;
    await post(f.host, `${f.path}/receipt`, { intent: "cancel", person: adaPerson, request_id: crypto.randomUUID() }, ada);
    await vi.waitFor(async () => expect((await entriesOf(f)).map((e) => e.state)).toEqual(["offered", "waiting"]), { timeout: 10_000, interval: 50 });

    const joinedMail = (await mailsTo("ben-leaves@example.com")).find((m) => m.subject === "You are on the waitlist: Spring Relay")!;
    const leave = new URL(/https?:\/\/\S+\/waitlist\?leave=\S+/.exec(joinedMail.text)![0]!);
    const page = await get(f.host, leave.pathname + leave.search);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Leave the waitlist for 10 km? Any place held for you goes to the next person.");
    // A link whose signature is not ours opens nothing.
    const token = leave.searchParams.get("leave")!;
    expect((await get(f.host, `${f.path}/waitlist?leave=${encodeURIComponent(token.slice(0, -2) + "AA")}`)).status).toBe(404);

    const replies = await Promise.all([0, 1].map(() => post(f.host, `${f.path}/waitlist`, { leave: token })));
    const texts = await Promise.all(replies.map((r) => r.text()));
    expect(texts.filter((t) => t.includes("You have left the waitlist."))).toHaveLength(1);
    expect(texts.filter((t) => t.includes("You are no longer on this waitlist."))).toHaveLength(1);
    await vi.waitFor(
      async () =>
        expect((await entriesOf(f)).map((e) => [e.name, e.state])).toEqual([
          ["Ben Runner", "removed"],
          ["Cy Runner", "offered"],
        ]),
      {
        timeout: 10_000,
        interval: 50,
      },
    );
  });

  it("the organiser reorders the list and takes someone off, which passes their held place on", async () => {
    const f = await fullForm();
    await paidCart(f, "Ada");
    for (const [name, key] of [
      ["Ben", "b"],
      ["Cy", "c"],
      ["Dee", "d"],
    ] as const)
      await join(f, name, `${name.toLowerCase()}-list@example.com`, key.repeat(30));
    const { moveWaitlistEntry, removeWaitlistEntry } = await import("../../workers/services/waitlists");
    const [, cy] = await entriesOf(f);
    expect(await moveWaitlistEntry(db(), f.registration.id, cy!.id, "up", Date.now())).toBe(true);
    expect((await entriesOf(f)).map((e) => e.name)).toEqual(["Cy Runner", "Ben Runner", "Dee Runner"]);
    // Moving the first up does nothing.
    expect(await moveWaitlistEntry(db(), f.registration.id, cy!.id, "up", Date.now())).toBe(false);

    // Ada's place frees by the organiser turning the limit up by one: Cy, now first, is offered it.
    await db()
      .update(formElements)
      .set({ optionsList: [{ id: "10k", display: "10 km", price_1: 4000, price_2: 4500, price_3: 5000, limit: 2 }] })
      .where(eq(formElements.id, f.ids.distance));
    expect(await offerFreedPlaces(env, db(), f.registration.id, Date.now())).toBe(1);
    expect((await entriesOf(f)).map((e) => [e.name, e.state])).toEqual([
      ["Cy Runner", "offered"],
      ["Ben Runner", "waiting"],
      ["Dee Runner", "waiting"],
    ]);
    // Taken off: Cy's held place is freed and goes to Ben (not while the form is closed: nobody could pay).
    await db()
      .update(registrations)
      .set({ closeTime: Date.now() - 1 })
      .where(eq(registrations.id, f.registration.id));
    expect(await removeWaitlistEntry(db(), f.registration.id, cy!.id, Date.now())).toBe(true);
    expect(await offerFreedPlaces(env, db(), f.registration.id, Date.now())).toBe(0);
    await db()
      .update(registrations)
      .set({ closeTime: Date.now() + 86_400_000 })
      .where(eq(registrations.id, f.registration.id));
    expect(await removeWaitlistEntry(db(), f.registration.id, cy!.id, Date.now())).toBe(false);
    expect(await offerFreedPlaces(env, db(), f.registration.id, Date.now())).toBe(1);
    expect((await entriesOf(f)).map((e) => [e.name, e.state])).toEqual([
      ["Cy Runner", "removed"],
      ["Ben Runner", "offered"],
      ["Dee Runner", "waiting"],
    ]);
  });
});
