/**
 * Member cards follow a correction of their person (issue 25, decision 0066): the holder's name and address
 * change in place on every unrevoked card (same number, the printed code still valid) with the card's history,
 * whether corrected on the division's member page, in /_admin/divisions or through the data API, and a new
 * address gets the card's link once however often the correction is sent.
 */
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { divisionMembers, entityChanges, passes, passMails } from "../../schema/d1";
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
  deliverCardMails,
  get,
  mailsTo,
  type Club,
} from "./member-card-fixtures";

const cardHistory = async (cardId: string) =>
  (
    await db()
      .select()
      .from(entityChanges)
      .where(and(eq(entityChanges.classname, "Pass"), eq(entityChanges.entityId, cardId)))
  ).map((h) => [h.field, h.oldValue, h.newValue]);

const personOf = async (memberId: string) => (await db().select().from(divisionMembers).where(eq(divisionMembers.id, memberId)))[0]!.personId;

/** The member page's person form, as the page sends it. */
const correct = (f: Club, memberId: string, fields: Record<string, string>) =>
  pagePost(
    HOST,
    `/org/${f.division.id}/members/${memberId}`,
    { intent: "person", first_name: "Rosa", last_name: "Card", birth_date: "2010-05-06", lang: "en", ...fields },
    f.cookie,
  );

describe("a member card follows a correction of its person", { timeout: 30_000 }, () => {
  it("takes the new name and address in place on the member page, keeps its number and code, and mails the new address once on a double submit", async () => {
    const f = await clubWithDivision("fix");
    const memberId = await addByHand(f, "Rosa");
    const card = await cardOfMember(f.club.id, memberId);
    await deliverCardMails(card.id);
    const oldAddress = `rosa-${f.unique}@example.com`;
    const [first] = await mailsTo(oldAddress);
    const link = cardPath(first!.text);

    const newAddress = `rosa.new-${f.unique}@example.com`;
    const twice = await Promise.all([1, 2].map(() => correct(f, memberId, { first_name: "Rosalie", email: newAddress })));
    expect(twice.map((r) => r.status)).toEqual([302, 302]);

    const [after] = await db().select().from(passes).where(eq(passes.id, card.id));
    expect(after).toMatchObject({ holderName: "Rosalie Card", holderEmail: newAddress, number: card.number, revokedTime: null });
    // The printed code and the first mail's link still open the card, now with the corrected name.
    const page = await (await get(link)).text();
    expect(page).toContain("Rosalie Card");
    expect(page).toContain("Valid");
    expect((await cardHistory(card.id)).sort()).toEqual([
      ["holder_email", JSON.stringify(oldAddress), JSON.stringify(newAddress)],
      ["holder_name", JSON.stringify("Rosa Card"), JSON.stringify("Rosalie Card")],
    ]);

    // One mail row for the new address, one mail, with the same card's link; nothing more to the old address.
    const rows = await db().select().from(passMails).where(eq(passMails.passId, card.id));
    expect(rows.map((r) => r.email).sort()).toEqual([newAddress, oldAddress].sort());
    await deliverCardMails(card.id);
    const mails = await mailsTo(newAddress);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("Rosalie Card");
    expect(cardPath(mails[0]!.text)).toBe(link);
    expect(await mailsTo(oldAddress)).toHaveLength(1);

    // Sent again with the same details: nothing changes, nothing is mailed.
    expect((await correct(f, memberId, { first_name: "Rosalie", email: newAddress })).status).toBe(302);
    expect(await db().select().from(passMails).where(eq(passMails.passId, card.id))).toHaveLength(2);
    expect(await cardHistory(card.id)).toHaveLength(2);
  });

  it("follows a correction through the data API on every unrevoked card of the person, and a name alone mails nothing", async () => {
    const f = await clubWithDivision("fix-api");
    const memberId = await addByHand(f, "Ivo");
    const personId = await personOf(memberId);
    const current = await cardOfMember(f.club.id, memberId);
    // The same person's membership of next season has its own card; an old card revoked by hand stays as it was.
    const nextId = crypto.randomUUID();
    const created = await call(f.token, "PUT", "/data-api/DivisionMember/", {
      uuid: nextId,
      division: f.division.id,
      person: personId,
      season: f.next.id,
      member_class: "racing",
      expires_at: f.next.endsAt,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const next = await cardOfMember(f.club.id, nextId);
    const revokedId = (await addByHand(f, "Ivo", { season: f.next.id, email: `other-${f.unique}@example.com`, first_name: "Iva" })) as string;
    const unrelated = await cardOfMember(f.club.id, revokedId);
    await pagePost(HOST, `/club/${f.club.id}/passes`, { intent: "revoke", pass: current.id, reason: "Lost" }, f.cookie);

    const renamed = await call(f.token, "POST", `/data-api/DivisionPerson/${personId}/`, { last_name: "Petrov" });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    const cards = await db().select().from(passes).where(eq(passes.clubId, f.club.id));
    const byId = new Map(cards.map((c) => [c.id, c]));
    expect(byId.get(next.id)!.holderName).toBe("Ivo Petrov");
    expect(byId.get(current.id)!.holderName).toBe("Ivo Card"); // revoked: kept as it was
    expect(byId.get(unrelated.id)!.holderName).toBe("Iva Card"); // another person
    expect(await cardHistory(next.id)).toEqual([["holder_name", JSON.stringify("Ivo Card"), JSON.stringify("Ivo Petrov")]]);
    // No new address, no new mail row (the card's own issuing mail only).
    expect(await db().select().from(passMails).where(eq(passMails.passId, next.id))).toHaveLength(1);

    // Garbage is refused in words and changes no card.
    const garbage = await call(f.token, "POST", `/data-api/DivisionPerson/${personId}/`, { email: "not an address" });
    expect(garbage.status).toBe(400);
    expect((await db().select().from(passes).where(eq(passes.id, next.id)))[0]!.holderEmail).toBe(`ivo-${f.unique}@example.com`);
  });

  it("follows a correction made in /_admin/divisions, written in the card history under the administrator", async () => {
    const f = await clubWithDivision("fix-admin");
    const memberId = await addByHand(f, "Ada");
    const personId = await personOf(memberId);
    const card = await cardOfMember(f.club.id, memberId);
    const sysEmail = `sys-fix-${f.unique}@example.com`;
    const sys = await createUserWithPassword(sysEmail, PASSWORD, [{ type: "system_admin" }]);
    await env.DB.prepare("UPDATE roles SET config = ? WHERE user_id = ?")
      .bind(JSON.stringify({ divisions: true }), sys.id)
      .run();
    const sysCookie = await signIn(ADMIN, sysEmail, PASSWORD);
    const detail = `/_admin/divisions/${personId}?class=DivisionPerson`;
    const html = await (await get(detail, sysCookie, ADMIN)).text();
    const hidden = (name: string) =>
      (new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
    const newAddress = `ada.lovelace-${f.unique}@example.com`;
    const saved = await pagePost(
      ADMIN,
      detail,
      [
        ["intent", "save"],
        ["original", hidden("original")],
        ["mtimes", hidden("mtimes")],
        ["first_name", "Ada"],
        ["last_name", "Lovelace"],
        ["birth_date", "2010-05-06"],
        ["email", newAddress],
        ["lang", "en"],
      ],
      sysCookie,
    );
    expect(saved.status, (await saved.clone().text()).slice(-300)).toBe(302);
    const [after] = await db().select().from(passes).where(eq(passes.id, card.id));
    expect(after).toMatchObject({ holderName: "Ada Lovelace", holderEmail: newAddress, number: card.number });
    const history = await db()
      .select()
      .from(entityChanges)
      .where(and(eq(entityChanges.classname, "Pass"), eq(entityChanges.entityId, card.id)));
    expect(history.map((h) => h.userId)).toEqual([sys.id, sys.id]);
    await deliverCardMails(card.id);
    expect(await mailsTo(newAddress)).toHaveLength(1);
  });
});
