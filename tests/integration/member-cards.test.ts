/**
 * Member cards follow their membership and reach their holder (issues 25 and 27, decision 0063): a removed
 * membership's card is revoked in the removal's batch, with its history, whether removed on the club's page, in
 * /_admin/divisions or through the data API; a membership added again gets a new card; a member's language is
 * chosen by hand and their card and reminder come in it; each card's link is mailed once (a job run twice, a
 * double click on "Send the card again"); and wrong clubs and garbage are refused.
 */
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CARD_REVOKE_REASONS } from "../../core/passes/pass-status";
import { carts, divisionMembers, divisionPeople, entityChanges, formElements, individuals, passes, passMails, registrations } from "../../schema/d1";
import { CARD_MAIL_MESSAGES, requeueLostCardMails } from "../../workers/services/card-mails";
import { MEMBER_EDIT_MESSAGES } from "../../workers/services/member-edits";
import { queueDueReminders } from "../../workers/services/membership-reminders";
import { runJob } from "../../workers/jobs";
import { createUserWithPassword, db, pagePost, signIn } from "./auth-fixtures";
import {
  ADMIN,
  HOST,
  PASSWORD,
  addByHand,
  call,
  cardOfMember,
  cardPath,
  clubWithDivision,
  consume,
  deliverCardMails,
  get,
  mailsTo,
  type Club,
} from "./member-card-fixtures";

async function checkIn(f: Club, code: string) {
  const reply = await pagePost(HOST, `/club/${f.club.id}/checkin`, { intent: "check", check: crypto.randomUUID(), code }, f.cookie);
  return reply.text();
}

describe("a removed membership's member card", { timeout: 30_000 }, () => {
  it("is revoked with the removal on the club's page, shows Revoked, and a membership added again gets a new card", async () => {
    const f = await clubWithDivision("remove");
    const memberId = await addByHand(f, "Rita");
    const card = await cardOfMember(f.club.id, memberId);
    await deliverCardMails(card.id);
    const [mail] = await mailsTo(`rita-${f.unique}@example.com`);
    const path = cardPath(mail!.text);
    expect(path).toContain(`/passes/${card.id}?t=`);
    expect(await (await get(path)).text()).toContain("Valid");

    const page = `/org/${f.division.id}/members/${memberId}`;
    // A double click: the first removes; the second finds it removed (or gone: the page's 404, as decision 0057 has it).
    const removed = await Promise.all([1, 2].map(() => pagePost(HOST, page, { intent: "remove" }, f.cookie)));
    expect(removed[0]!.status).toBe(302);
    expect([302, 404]).toContain(removed[1]!.status);
    const [revoked] = await db().select().from(passes).where(eq(passes.id, card.id));
    expect(revoked).toMatchObject({ revokeReason: CARD_REVOKE_REASONS.membershipRemoved });
    expect(revoked!.revokedTime).not.toBeNull();
    // The card's history holds the revocation once, however often the removal was sent.
    const history = await db()
      .select()
      .from(entityChanges)
      .where(and(eq(entityChanges.classname, "Pass"), eq(entityChanges.entityId, card.id)));
    expect(history.map((h) => [h.field, h.newValue]).sort()).toEqual([
      ["revoke_reason", JSON.stringify("Membership removed")],
      ["revoked_time", JSON.stringify(revoked!.revokedTime)],
    ]);
    const cardPage = await (await get(path)).text();
    expect(cardPage).toContain("Revoked");
    const answer = await checkIn(f, path);
    expect(answer).toContain("Revoked");
    expect(answer).toContain("Membership removed");

    // Added again: a new card with its own number and mail; the old one stays revoked.
    const again = await addByHand(f, "Rita");
    const renewed = await cardOfMember(f.club.id, again);
    expect(renewed.id).not.toBe(card.id);
    expect(renewed.number).not.toBe(card.number);
    expect(renewed.revokedTime).toBeNull();
    expect((await db().select().from(passes).where(eq(passes.id, card.id)))[0]!.revokedTime).toBe(revoked!.revokedTime);
  });

  it("is revoked alike when the membership is deleted through the data API or /_admin/divisions, and created again through the API it gets a new card", async () => {
    const f = await clubWithDivision("api");
    const viaApi = await addByHand(f, "Abel");
    const first = await cardOfMember(f.club.id, viaApi);
    const [row] = await db().select().from(divisionMembers).where(eq(divisionMembers.id, viaApi));
    expect((await call(f.token, "DELETE", `/data-api/DivisionMember/${viaApi}`)).status).toBe(204);
    expect((await db().select().from(passes).where(eq(passes.id, first.id)))[0]).toMatchObject({ revokeReason: "Membership removed" });

    // The same membership restored through the API (its own uuid again): a new card, never the old one reinstated.
    const restored = await call(f.token, "PUT", "/data-api/DivisionMember/", {
      uuid: viaApi,
      division: f.division.id,
      person: row!.personId,
      season: f.season.id,
      member_class: "racing",
      expires_at: f.season.endsAt,
    });
    expect(restored.status, await restored.clone().text()).toBe(201);
    const second = await cardOfMember(f.club.id, viaApi);
    expect(second.id).not.toBe(first.id);
    expect(second.revokedTime).toBeNull();
    expect((await db().select().from(passes).where(eq(passes.id, first.id)))[0]!.revokedTime).not.toBeNull();

    const viaAdmin = await addByHand(f, "Bea");
    const adminCard = await cardOfMember(f.club.id, viaAdmin);
    const sysEmail = `sys-${f.unique}@example.com`;
    const sys = await createUserWithPassword(sysEmail, PASSWORD, [{ type: "system_admin" }]);
    await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?")
      .bind(JSON.stringify({ divisions: true }), sys.id)
      .run();
    const sysCookie = await signIn(ADMIN, sysEmail, PASSWORD);
    const deleted = await pagePost(ADMIN, `/_admin/divisions/${viaAdmin}?class=DivisionMember`, [["intent", "delete"]], sysCookie);
    expect(deleted.status).toBe(302);
    const [gone] = await db().select().from(passes).where(eq(passes.id, adminCard.id));
    expect(gone).toMatchObject({ revokeReason: "Membership removed" });
    const history = await db()
      .select()
      .from(entityChanges)
      .where(and(eq(entityChanges.classname, "Pass"), eq(entityChanges.entityId, adminCard.id)));
    expect(history.map((h) => h.userId)).toEqual([sys.id, sys.id]);
  });

  it("moved to another season is revoked and the new season's card issued", async () => {
    const f = await clubWithDivision("move");
    const memberId = await addByHand(f, "Mo");
    const before = await cardOfMember(f.club.id, memberId);
    const moved = await pagePost(
      HOST,
      `/org/${f.division.id}/members/${memberId}`,
      { intent: "membership", season: f.next.id, member_class: "racing", note: "" },
      f.cookie,
    );
    expect(moved.status).toBe(302);
    expect((await db().select().from(passes).where(eq(passes.id, before.id)))[0]).toMatchObject({ revokeReason: CARD_REVOKE_REASONS.membershipMoved });
    const after = await cardOfMember(f.club.id, memberId);
    expect(after).toMatchObject({ season: "Next", revokedTime: null });
    expect(after.id).not.toBe(before.id);
  });
});

describe("a member's language", { timeout: 30_000 }, () => {
  it("is chosen when adding by hand (English by default), refused when garbage, and their card and reminder come in it", async () => {
    const f = await clubWithDivision("lang");
    const english = await addByHand(f, "Ed");
    const french = await addByHand(f, "Fleur", { lang: "fr" });
    const people = await db().select().from(divisionPeople).where(eq(divisionPeople.divisionId, f.division.id));
    expect(people.map((p) => [p.firstName, p.lang]).sort()).toEqual([
      ["Ed", "en"],
      ["Fleur", "fr"],
    ]);
    const garbage = await pagePost(
      HOST,
      `/org/${f.division.id}/home`,
      { intent: "add", submission: crypto.randomUUID(), first_name: "G", last_name: "H", season: f.season.id, member_class: "racing", lang: "de" },
      f.cookie,
    );
    expect(garbage.status).toBe(400);
    expect(await garbage.text()).toContain(MEMBER_EDIT_MESSAGES.lang);

    const [enCard, frCard] = [await cardOfMember(f.club.id, english), await cardOfMember(f.club.id, french)];
    expect([enCard.lang, frCard.lang]).toEqual(["en", "fr"]);
    await deliverCardMails(frCard.id);
    await deliverCardMails(enCard.id);
    const [fr] = await mailsTo(`fleur-${f.unique}@example.com`);
    expect(fr!.subject).toBe("Votre carte de membre de Cards lang Club");
    expect(fr!.text).toContain("Saison : Current");
    const [en] = await mailsTo(`ed-${f.unique}@example.com`);
    expect(en!.subject).toBe("Your member card from Cards lang Club");

    // Their reminder (the season ends in 10 days) is in their language too.
    const sent: { body: unknown }[] = [];
    const queue = { sendBatch: async (m: { body: unknown }[]) => void sent.push(...m), send: async (body: unknown) => void sent.push({ body }) };
    await queueDueReminders({ ...env, MAIL_QUEUE: queue as unknown as Queue }, db(), Date.now());
    await consume(sent.map((s) => s.body));
    const reminders = (await mailsTo(`fleur-${f.unique}@example.com`)).filter((m) => m.subject.includes("adhésion"));
    expect(reminders).toHaveLength(1);

    // Changed on their page, the language sticks; a form without it leaves it alone.
    const page = `/org/${f.division.id}/members/${english}`;
    const person = { intent: "person", first_name: "Ed", last_name: "Card", birth_date: "2010-05-06", email: `ed-${f.unique}@example.com` };
    expect((await pagePost(HOST, page, { ...person, lang: "fr" }, f.cookie)).status).toBe(302);
    expect((await pagePost(HOST, page, person, f.cookie)).status).toBe(302);
    const [ed] = await db().select().from(divisionPeople).where(eq(divisionPeople.firstName, "Ed"));
    expect(ed!.lang).toBe("fr");
  });
});

describe("the card's link by mail", { timeout: 30_000 }, () => {
  it("is sent once when the membership job runs twice, in the registrant's language, and never without an address", async () => {
    const f = await clubWithDivision("job");
    const form = { id: crypto.randomUUID(), clubId: f.club.id, siteId: f.site.id, name: "Adhésion", isApproved: true, isBilingual: true, fieldMtimes: {} };
    await db().insert(registrations).values(form);
    const el = { first: crypto.randomUUID(), last: crypto.randomUUID(), email: crypto.randomUUID(), panel: crypto.randomUUID() };
    const owners = { registrationId: form.id, clubId: f.club.id, siteId: f.site.id, fieldMtimes: {} };
    await db()
      .insert(formElements)
      .values([
        { id: el.first, type: "text", caption: "First name", ordinal: 1, ...owners },
        { id: el.last, type: "text", caption: "Last name", ordinal: 2, ...owners },
        { id: el.email, type: "email", caption: "E-mail", ordinal: 3, ...owners },
        {
          id: el.panel,
          type: "membership",
          caption: "Membership",
          ordinal: 4,
          ...owners,
          config: { division_id: f.division.id },
          optionsList: [{ id: "racing", display: "Racing", member_class: "racing", price_1: 4500 }],
        },
      ]);
    const pay = async (first: string, email: string | null) => {
      const cartId = crypto.randomUUID();
      await db()
        .insert(carts)
        .values({ id: cartId, registrationId: form.id, clubId: f.club.id, siteId: f.site.id, isComplete: true, lang: "fr", fieldMtimes: {} });
      await db()
        .insert(individuals)
        .values({
          id: crypto.randomUUID(),
          cartId,
          registrationId: form.id,
          clubId: f.club.id,
          siteId: f.site.id,
          isComplete: true,
          paidAt: Date.now(),
          fieldMtimes: {},
          values: {
            [el.first]: { v: first, p: 0 },
            [el.last]: { v: "Payé", p: 0 },
            ...(email ? { [el.email]: { v: email, p: 0 } } : {}),
            [el.panel]: { v: { option: "racing", member_type: "racing", division_fees: 4500 }, p: 4500 },
          },
        });
      return cartId;
    };
    const address = `jules-${f.unique}@example.com`;
    const carts2 = [await pay("Jules", address), await pay("Nadia", null)];
    for (let i = 0; i < 2; i++) expect(await runJob(env, { kind: "record-members", registrationId: form.id, cartIds: carts2 })).toBe("done");
    const cards = await db().select().from(passes).where(eq(passes.clubId, f.club.id));
    expect(cards.map((c) => [c.holderName, c.lang]).sort()).toEqual([
      ["Jules Payé", "fr"],
      ["Nadia Payé", "fr"],
    ]);
    const jules = cards.find((c) => c.holderName === "Jules Payé")!;
    const nadia = cards.find((c) => c.holderName === "Nadia Payé")!;
    expect(await db().select().from(passMails).where(eq(passMails.passId, nadia.id))).toHaveLength(0);
    await deliverCardMails(jules.id);
    await deliverCardMails(jules.id); // the same messages again change nothing
    const mails = await mailsTo(address);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Votre carte de membre de Cards job Club");
    expect(mails[0]!.text).toContain("Valide jusqu’au");
    expect(cardPath(mails[0]!.text)).toContain(`/passes/${jules.id}?t=p1.`);
    const [person] = await db().select().from(divisionPeople).where(eq(divisionPeople.firstName, "Jules"));
    expect(person!.lang).toBe("fr");
  });

  it("is sent again from the Passes page once per double click, refused without an address, when revoked, to the wrong club and for garbage", async () => {
    const f = await clubWithDivision("again");
    const other = await clubWithDivision("again-other");
    const memberId = await addByHand(f, "Sam");
    const card = await cardOfMember(f.club.id, memberId);
    await deliverCardMails(card.id);
    const passesPage = `/club/${f.club.id}/passes`;
    const listed = await (await get(passesPage, f.cookie)).text();
    expect(listed).toContain("Send the card again");
    expect(listed).toMatch(/Sent \w{3}/);

    const submission = crypto.randomUUID();
    const twice = await Promise.all([1, 2].map(() => pagePost(HOST, passesPage, { intent: "send", target: card.id, pass: card.id, submission }, f.cookie)));
    expect(twice.map((r) => r.status)).toEqual([302, 302]);
    expect(twice[0]!.headers.get("Location")).toBe(`${passesPage}?saved=cardSent`);
    expect(await db().select().from(passMails).where(eq(passMails.passId, card.id))).toHaveLength(2);
    await deliverCardMails(card.id);
    expect(await mailsTo(`sam-${f.unique}@example.com`)).toHaveLength(2);

    // Another club's admin cannot send it; garbage is a 400 in words or a 404, never a 500.
    const foreign = await pagePost(HOST, passesPage, { intent: "send", pass: card.id, submission: crypto.randomUUID() }, other.cookie);
    expect(foreign.status).toBe(404);
    const wrongClub = await pagePost(HOST, `/club/${other.club.id}/passes`, { intent: "send", pass: card.id, submission: crypto.randomUUID() }, other.cookie);
    expect(wrongClub.status).toBe(404);
    expect(await wrongClub.text()).toContain("There is no such card");
    expect((await pagePost(HOST, passesPage, { intent: "send", pass: "x", submission: "y" }, f.cookie)).status).toBe(400);
    expect((await pagePost(HOST, passesPage, { intent: "send" }, f.cookie)).status).toBe(400);

    const silent = await addByHand(f, "Quiet", { email: "" });
    const noAddress = await cardOfMember(f.club.id, silent);
    const refused = await pagePost(HOST, passesPage, { intent: "send", pass: noAddress.id, submission: crypto.randomUUID() }, f.cookie);
    expect(refused.status).toBe(400);
    expect((await refused.text()).replaceAll("&#x27;", "'")).toContain(CARD_MAIL_MESSAGES.noAddress);

    await pagePost(HOST, passesPage, { intent: "revoke", pass: card.id, reason: "Lost" }, f.cookie);
    const afterRevoke = await pagePost(HOST, passesPage, { intent: "send", pass: card.id, submission: crypto.randomUUID() }, f.cookie);
    expect(afterRevoke.status).toBe(400);
    expect(await afterRevoke.text()).toContain("A revoked card is not sent");
    // Revoked by hand, the card's history says so too.
    const history = await db()
      .select()
      .from(entityChanges)
      .where(and(eq(entityChanges.classname, "Pass"), eq(entityChanges.entityId, card.id), eq(entityChanges.field, "revoke_reason")));
    expect(history.map((h) => h.newValue)).toEqual([JSON.stringify("Lost")]);
  });

  it("whose queue message was lost is queued again by the cron an hour on, once", async () => {
    const f = await clubWithDivision("lost");
    const card = await cardOfMember(f.club.id, await addByHand(f, "Lou"));
    const now = Date.now();
    // As if the issuer stopped before the queue: the row waits, untouched for over an hour.
    await db()
      .update(passMails)
      .set({ state: "queued", updatedAt: now - 2 * 60 * 60_000 })
      .where(eq(passMails.passId, card.id));
    const sent: { body: unknown }[] = [];
    const queue = { sendBatch: async (m: { body: unknown }[]) => void sent.push(...m), send: async (body: unknown) => void sent.push({ body }) };
    const recording = { ...env, MAIL_QUEUE: queue as unknown as Queue };
    await requeueLostCardMails(recording, db(), now);
    await requeueLostCardMails(recording, db(), now + 60_000); // the next sweep waits another hour
    expect(sent.filter((m) => (m.body as { passMail: string }).passMail === card.id)).toHaveLength(1);
  });

  it("issued by hand goes to the holder in the language chosen, once per double click", async () => {
    const f = await clubWithDivision("hand");
    const submission = crypto.randomUUID();
    const address = `holder-${f.unique}@example.com`;
    const fields = {
      intent: "issue",
      submission,
      kind: "pass",
      holder_name: "Hélène Main",
      holder_email: address,
      lang: "fr",
      season: "2026–27",
      valid_from: "2026-09-01",
      valid_until: "2027-08-31",
    };
    const sent = await Promise.all([1, 2].map(() => pagePost(HOST, `/club/${f.club.id}/passes`, fields, f.cookie)));
    expect(sent.map((r) => r.status)).toEqual([302, 302]);
    const [card] = await db()
      .select()
      .from(passes)
      .where(eq(passes.source, `hand:${submission}`));
    await deliverCardMails(card!.id);
    const mails = await mailsTo(address);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Votre passe de saison de Cards hand Club");
    expect(mails[0]!.text).toContain("31 août 2027");
    const bad = await pagePost(HOST, `/club/${f.club.id}/passes`, { ...fields, submission: crypto.randomUUID(), lang: "xx" }, f.cookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Choose English or French");
  });
});
