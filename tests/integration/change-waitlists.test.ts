// A waitlist from the change form (issue 24, decision 0066): a paid person asks for a full limited option, joins
// its waitlist for this change (once for a double click), is offered the place when it frees (held on their own
// entry), and accepting applies the change through the priced-change path (the difference paid by card), once;
// accepting again or after the offer lapsed is refused in words; the organiser's list shows the change request.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { cartChanges, places, waitlistEntries } from "../../schema/d1";
import { offerFreedPlaces } from "../../workers/services/waitlists";
import { createUserWithPassword, db, signIn, worker } from "./auth-fixtures";
import { get, PORT_HOST, post } from "./registration-fixtures";
import { hostRequest } from "./fixtures";
import { withStripeFake } from "./stripe-fixtures";
import { CARD, cancel, changeTo, distanceOf, entriesOf, halfForm, mailsTo, offerPath, paidPerson, sessionOf } from "./change-fixtures";

const fake = withStripeFake();

describe("a change that waits for a full limited option", { timeout: 120_000 }, () => {
  it("joins once, is offered the freed place on its own entry, and accepting pays the difference and changes the entry once", async () => {
    const f = await halfForm();
    const ada = await paidPerson(fake(), f, "half", "Ada");
    const bo = await paidPerson(fake(), f, "5k", "Bo");

    // The change form says it is full and offers the waitlist; nothing is held or changed.
    const form = `${f.path}/receipt?change=${bo.personId}&kind=edit`;
    const full = await post(f.host, form, changeTo(f, bo.personId, crypto.randomUUID(), "half", "Bo"), bo.cookie);
    expect(full.status).toBe(409);
    const page = await full.text();
    expect(page).toContain("Half marathon: Sold out");
    expect(page).toContain("Join the waitlist for this change");

    // A double click on "Join": one entry, one mail.
    const joinFields = changeTo(f, bo.personId, crypto.randomUUID(), "half", "Bo", { waitlist: "join" });
    const joins = await Promise.all([1, 2].map(() => post(f.host, form, joinFields, bo.cookie)));
    expect(joins.map((r) => r.status)).toEqual([200, 200]);
    expect(await joins[0]!.text()).toContain("Bo Runner is number 1 on the waitlist for Half marathon.");
    const [entry] = await entriesOf(f);
    expect(await entriesOf(f)).toHaveLength(1);
    expect(entry).toMatchObject({ state: "waiting", changeIndividualId: bo.personId, email: bo.email, pools: [`opt:${f.ids.distance}:half`] });
    expect((await mailsTo(bo.email)).filter((m) => m.subject === "You are on the waitlist: Spring Relay")).toHaveLength(1);
    expect((await distanceOf(bo.personId))[f.ids.distance]?.v).toBe("5k");

    // The organiser sees the change request beside new entries.
    const organiser = `org-${crypto.randomUUID().slice(0, 6)}@example.com`;
    await createUserWithPassword(organiser, "waiting-list-42", [{ type: "org_admin", clubId: f.club.id }]);
    const cookie = await signIn(f.host, organiser, "waiting-list-42");
    const list = await (await get(f.host, `/registration/${f.registration.id}/admin/waitlist`, cookie)).text();
    expect(list).toContain("Change for Bo Runner");

    // Ada cancels: the place is held on Bo's own entry and Bo is mailed the offer.
    await cancel(f, ada);
    await offerFreedPlaces(env, db(), f.registration.id, Date.now());
    await vi.waitFor(async () => expect((await entriesOf(f)).map((e) => e.state)).toEqual(["offered"]), { timeout: 10_000, interval: 50 });
    const held = await db()
      .select()
      .from(places)
      .where(and(eq(places.unit, bo.personId), eq(places.state, "held")));
    expect(held.map((p) => p.pool)).toEqual([`opt:${f.ids.distance}:half`]);
    // Someone else asking for it now is told it is full.
    const carl = await paidPerson(fake(), f, "5k", "Carl");
    expect((await post(f.host, `${f.path}/receipt`, changeTo(f, carl.personId, crypto.randomUUID(), "half", "Carl"), carl.cookie)).status).toBe(409);

    const link = await vi.waitFor(async () => {
      const found = await offerPath(bo.email);
      expect(found).not.toBe("");
      return found;
    });
    const offered = await get(f.host, link);
    expect(offered.status).toBe(200);
    expect(await offered.text()).toContain("A place in Half marathon is held for Bo Runner until");

    // Accepting twice at once: one card page for the difference (Half 50.00 against 5 km 35.00).
    const token = new URL(`https://x${link}`).searchParams.get("offer")!;
    const accepts = await Promise.all([1, 2].map(() => post(f.host, link, { intent: "accept", offer: token })));
    const sessions = accepts.map((r) => sessionOf(r.headers.get("Location")));
    expect(sessions[0]).not.toBeNull();
    expect(sessions[1]).toBe(sessions[0]);
    expect((await fake().pay(sessions[0]!, CARD)).status).toBe(303);
    expect((await distanceOf(bo.personId))[f.ids.distance]?.v).toBe("half");
    const changes = await db().select().from(cartChanges).where(eq(cartChanges.id, entry!.id));
    expect(changes.map((c) => [c.kind, c.amount])).toEqual([["edit", 1500]]);
    const taken = await db()
      .select()
      .from(places)
      .where(and(eq(places.pool, `opt:${f.ids.distance}:half`), eq(places.state, "taken")));
    // Ada's row stays with her cancelled entry (not counted); the live place is Bo's.
    expect(taken.map((p) => p.unit).filter((unit) => unit !== ada.personId)).toEqual([bo.personId]);

    await offerFreedPlaces(env, db(), f.registration.id, Date.now());
    expect((await entriesOf(f)).map((e) => e.state)).toEqual(["accepted"]);
    // Accepted again: refused in words, nothing more charged.
    const again = await post(f.host, link, { intent: "accept", offer: token });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("The entry was changed.");
    expect(await (await get(f.host, link)).text()).toContain("The entry was changed.");
    expect(await db().select().from(cartChanges).where(eq(cartChanges.id, entry!.id))).toHaveLength(1);
  });

  it("is offered a place as soon as the organiser raises the option's limit in the form builder", async () => {
    const f = await halfForm();
    await paidPerson(fake(), f, "half", "Ada");
    const bo = await paidPerson(fake(), f, "5k", "Bo");
    const joined = await post(f.host, `${f.path}/receipt`, changeTo(f, bo.personId, crypto.randomUUID(), "half", "Bo", { waitlist: "join" }), bo.cookie);
    expect(joined.status).toBe(200);
    const organiser = `org-${crypto.randomUUID().slice(0, 6)}@example.com`;
    await createUserWithPassword(organiser, "waiting-list-42", [{ type: "org_admin", clubId: f.club.id }]);
    const cookie = await signIn(f.host, organiser, "waiting-list-42");
    const option = (i: number, id: string, display: string, price: string, limit = "") => ({
      [`options_list.${i}.id`]: id,
      [`options_list.${i}.display`]: display,
      [`options_list.${i}.limit`]: limit,
      [`options_list.${i}.price_1`]: price,
      [`options_list.${i}.price_2`]: price,
      [`options_list.${i}.price_3`]: price,
    });
    const saved = await post(
      f.host,
      `/registration/${f.registration.id}/admin/elements/${f.ids.distance}`,
      {
        intent: "save",
        caption: "Distance",
        is_mandatory: "on",
        ...option(0, "5k", "5 km", "35.00"),
        ...option(1, "10k", "10 km", "45.00"),
        ...option(2, "half", "Half marathon", "50.00", "2"),
      },
      cookie,
    );
    expect(saved.status, (await saved.clone().text()).slice(0, 300)).toBe(302);
    await vi.waitFor(async () => expect((await entriesOf(f)).map((e) => e.state)).toEqual(["offered"]), { timeout: 10_000, interval: 50 });
  });

  it("after its time the offer is refused and the place goes to the next in line; garbage is a 4xx", async () => {
    const f = await halfForm();
    const ada = await paidPerson(fake(), f, "half", "Ada");
    const bo = await paidPerson(fake(), f, "5k", "Bo");
    const cy = await paidPerson(fake(), f, "10k", "Cy");
    for (const who of [bo, cy]) {
      const joined = await post(
        f.host,
        `${f.path}/receipt`,
        changeTo(f, who.personId, crypto.randomUUID(), "half", who === bo ? "Bo" : "Cy", { waitlist: "join" }),
        who.cookie,
      );
      expect(joined.status).toBe(200);
    }
    await cancel(f, ada);
    await offerFreedPlaces(env, db(), f.registration.id, Date.now());
    await vi.waitFor(async () => expect((await entriesOf(f)).map((e) => e.state)).toEqual(["offered", "waiting"]), { timeout: 10_000, interval: 50 });
    const link = await vi.waitFor(async () => {
      const found = await offerPath(bo.email);
      expect(found).not.toBe("");
      return found;
    });
    const token = new URL(`https://x${link}`).searchParams.get("offer")!;

    // Bo's offer lapses unused: the link says so, Accept is refused, and Cy is offered the place.
    const [boEntry] = await entriesOf(f);
    const past = Date.now() - 1000;
    await db().update(waitlistEntries).set({ offerExpiresAt: past }).where(eq(waitlistEntries.id, boEntry!.id));
    await db()
      .update(places)
      .set({ expiresAt: past })
      .where(and(eq(places.unit, bo.personId), eq(places.state, "held")));
    const lapsed = await get(f.host, link);
    expect(lapsed.status).toBe(410);
    expect(await lapsed.text()).toContain("This offer ended on");
    const refused = await post(f.host, link, { intent: "accept", offer: token });
    expect(refused.status).toBe(410);
    expect(await offerFreedPlaces(env, db(), f.registration.id, Date.now())).toBe(1);
    expect((await entriesOf(f)).map((e) => e.state)).toEqual(["expired", "offered"]);
    expect((await distanceOf(bo.personId))[f.ids.distance]?.v).toBe("5k");

    // Garbage: a forged or leave token, a missing intent, another form's id.
    expect((await post(f.host, link, { intent: "accept", offer: "c1.nonsense" })).status).toBe(410);
    expect((await post(f.host, link, { intent: "steal", offer: token })).status).toBe(400);
    expect((await post(f.host, link, {})).status).toBe(400);
    const json = await worker.fetch(
      hostRequest(PORT_HOST(f.host), link, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: `http://${PORT_HOST(f.host)}` },
        body: "{}",
      }),
    );
    expect(json.status).toBe(400);
    expect((await get(f.host, `${f.path}/change-offer?offer=${"x".repeat(300)}`)).status).toBe(410);
    expect((await get(f.host, `/register/${crypto.randomUUID()}/change-offer?offer=${token}`)).status).toBe(404);
  });
});
