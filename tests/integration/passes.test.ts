/**
 * Passes and member cards (issue 27, decision 0050): a card per recorded membership and per person of a form
 * that issues season passes (once, however often the job runs), cards by hand and revoked with a reason,
 * numbers sequential and never given again, the signed card page, and check-in with its five answers.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PASS_MESSAGES } from "../../core/passes/pass-status";
import { carts, divisionSeasons, divisions, formElements, individuals, passChecks, passes, registrations } from "../../schema/d1";
import { runJob } from "../../workers/jobs";
import { issuePass, passCardPath } from "../../workers/services/passes";
import { createUserWithPassword, db, pagePost, signIn, worker, pageGet } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";

const PASSWORD = "lantern-pass-42";
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const get = (path: string, cookie?: string) => pageGet("localhost", path, cookie);
const html = (text: string) => text.replaceAll("'", "&#x27;");

async function club(tag: string) {
  const { site, club } = await createSiteWithRace(db(), { hostname: `pass-${tag}.localhost`, siteName: `Pass ${tag}`, raceName: `Pass race ${tag}` });
  await createUserWithPassword(`admin-${tag}@example.com`, PASSWORD, [{ type: "org_admin", clubId: club.id }]);
  return { site, club, cookie: await signIn("localhost", `admin-${tag}@example.com`, PASSWORD) };
}

async function userWith(tag: string, role: { type: string; clubId?: string; scope?: string }) {
  await createUserWithPassword(`${tag}@example.com`, PASSWORD, [role]);
  return signIn("localhost", `${tag}@example.com`, PASSWORD);
}

/** A live form with first and last name and, when asked, a membership panel; each person paid in their own cart. */
async function formWith(clubId: string, siteId: string, extra: Partial<typeof registrations.$inferInsert>, membership: boolean) {
  const id = crypto.randomUUID();
  await db()
    .insert(registrations)
    .values({ id, clubId, siteId, name: "Season form", isApproved: true, fieldMtimes: {}, ...extra });
  const owners = { registrationId: id, clubId, siteId, fieldMtimes: {} };
  const ids = { first: crypto.randomUUID(), last: crypto.randomUUID(), panel: crypto.randomUUID() };
  await db()
    .insert(formElements)
    .values([
      { id: ids.first, type: "text", caption: "First name", ordinal: 1, ...owners },
      { id: ids.last, type: "text", caption: "Last name", ordinal: 2, ...owners },
      ...(membership
        ? [
            {
              id: ids.panel,
              type: "membership",
              caption: "Membership",
              ordinal: 3,
              ...owners,
              optionsList: [{ id: "racing", display: "Racing", member_class: "racing", price_1: 4500 }],
            },
          ]
        : []),
    ]);
  const pay = async (first: string, last: string) => {
    const cartId = crypto.randomUUID();
    await db().insert(carts).values({ id: cartId, registrationId: id, clubId, siteId, isComplete: true, completedAt: Date.now(), fieldMtimes: {} });
    await db()
      .insert(individuals)
      .values({
        id: crypto.randomUUID(),
        cartId,
        registrationId: id,
        clubId,
        siteId,
        isComplete: true,
        paidAt: Date.now(),
        fieldMtimes: {},
        values: {
          [ids.first]: { v: first, p: 0 },
          [ids.last]: { v: last, p: 0 },
          ...(membership ? { [ids.panel]: { v: { option: "racing", member_type: "racing", division_fees: 4500 }, p: 4500 } } : {}),
        },
      });
    return cartId;
  };
  return { id, pay };
}

const cardOf = async (passId: string) => (await get(await passCardPath(env, passId))).text();

async function check(clubId: string, cookie: string, code: string, checkId: string = crypto.randomUUID()) {
  const reply = await pagePost("localhost", `/club/${clubId}/checkin`, { intent: "check", check: checkId, code }, cookie);
  return { status: reply.status, text: await reply.text() };
}

describe("passes and member cards", () => {
  it("gives each recorded membership one member card for its season, however often the job runs", async () => {
    const { site, club: c } = await club("members");
    const divisionId = crypto.randomUUID();
    await db().insert(divisions).values({ id: divisionId, clubId: c.id, siteId: site.id, name: "Members", fieldMtimes: {} });
    const startsAt = Date.parse(`${day(-30)}T00:00:00Z`);
    await db()
      .insert(divisionSeasons)
      .values({
        id: crypto.randomUUID(),
        divisionId,
        clubId: c.id,
        siteId: site.id,
        name: "This season",
        startsAt,
        endsAt: startsAt + 365 * DAY,
        fieldMtimes: {},
      });
    const form = await formWith(c.id, site.id, {}, true);
    const ann = await form.pay("Ann", "Lee");
    const bo = await form.pay("Bo", "Berg");
    for (let i = 0; i < 2; i++) expect(await runJob(env, { kind: "record-members", registrationId: form.id, cartIds: [ann, bo] })).toBe("done");
    const cards = await db().select().from(passes).where(eq(passes.clubId, c.id)).orderBy(passes.number);
    expect(cards.map((p) => [p.number, p.holderName, p.kind, p.season, p.validFrom])).toEqual([
      ["000001", "Ann Lee", "member_card", "This season", day(-30)],
      ["000002", "Bo Berg", "member_card", "This season", day(-30)],
    ]);
    const page = await cardOf(cards[0]!.id);
    for (const words of ["Ann Lee", "Member card", "This season", "000001", "Valid", "Never", "<svg"]) expect(page).toContain(words);
  });

  it("issues season passes from a form configured for them, once per person", async () => {
    const { site, club: c } = await club("season");
    const form = await formWith(c.id, site.id, { passSeason: "Summer", passValidFrom: day(-1), passValidUntil: day(90) }, false);
    const cart = await form.pay("Cy", "Côté");
    await Promise.all([1, 2].map(() => runJob(env, { kind: "issue-passes", registrationId: form.id, cartIds: [cart] })));
    const made = await db().select().from(passes).where(eq(passes.clubId, c.id));
    expect(made.map((p) => [p.holderName, p.kind, p.season, p.number])).toEqual([["Cy Côté", "pass", "Summer", "000001"]]);
    // A form without a pass season issues nothing.
    const plain = await formWith(c.id, site.id, {}, false);
    await runJob(env, { kind: "issue-passes", registrationId: plain.id, cartIds: [await plain.pay("Di", "Ng")] });
    expect(await db().select().from(passes).where(eq(passes.clubId, c.id))).toHaveLength(1);
  });

  it("issues by hand once per double click, refuses bad input with its words, and never gives a number again", async () => {
    const { club: c, cookie } = await club("hand");
    const fields = { intent: "issue", kind: "pass", holder_name: "Eve Ray", holder_email: "", season: "2026", valid_from: day(-1), valid_until: day(30) };
    const submission = crypto.randomUUID();
    const replies = await Promise.all([1, 2].map(() => pagePost("localhost", `/club/${c.id}/passes`, { ...fields, submission }, cookie)));
    for (const reply of replies) expect(reply.headers.get("Location")).toBe(`/club/${c.id}/passes?saved=passIssued`);
    expect(await db().select().from(passes).where(eq(passes.clubId, c.id))).toHaveLength(1);
    const bad = await pagePost(
      "localhost",
      `/club/${c.id}/passes`,
      { ...fields, submission: crypto.randomUUID(), holder_name: " ", holder_email: "nope", valid_until: day(-5) },
      cookie,
    );
    expect(bad.status).toBe(400);
    const text = await bad.text();
    for (const message of [PASS_MESSAGES.holderName, PASS_MESSAGES.holderEmail, PASS_MESSAGES.order]) expect(text).toContain(html(message));
    const garbage = await pagePost("localhost", `/club/${c.id}/passes`, { intent: "issue", submission: "x", kind: "gold" }, cookie);
    expect(garbage.status).toBe(400);
    // The last card deleted (through the admin area): the next card still takes a new number.
    await db().delete(passes).where(eq(passes.clubId, c.id));
    await pagePost("localhost", `/club/${c.id}/passes`, { ...fields, submission: crypto.randomUUID() }, cookie);
    const [next] = await db().select().from(passes).where(eq(passes.clubId, c.id));
    expect(next!.number).toBe("000002");
    const list = await (await get(`/club/${c.id}/passes`, cookie)).text();
    expect(list).toContain("Eve Ray");
    expect(list).toContain(`/passes/${next!.id}?t=p1.`);
  });

  it("revokes with a reason, and check-in answers Valid, Expired, Revoked, another club's and a forged code", async () => {
    const { site, club: c, cookie } = await club("gate");
    const other = await club("gate-other");
    const issue = (holderName: string, validFrom: string, validUntil: string, clubId = c.id, siteId: string | null = site.id) =>
      issuePass(
        db(),
        { clubId, siteId, kind: "member_card", holderName, holderEmail: null, season: "S", validFrom, validUntil, source: `test:${crypto.randomUUID()}` },
        Date.now(),
      ).then((r) => r.pass);
    const valid = await issue("Val Id", day(-10), day(10));
    const expired = await issue("Ex Pired", day(-100), day(-1));
    const revoked = await issue("Re Voked", day(-10), day(10));
    const foreign = await issue("For Eign", day(-10), day(10), other.club.id, other.site.id);

    const noReason = await pagePost("localhost", `/club/${c.id}/passes`, { intent: "revoke", target: revoked.id, pass: revoked.id, reason: " " }, cookie);
    expect(noReason.status).toBe(400);
    expect(await noReason.text()).toContain(PASS_MESSAGES.reason);
    for (let i = 0; i < 2; i++) {
      const done = await pagePost("localhost", `/club/${c.id}/passes`, { intent: "revoke", target: revoked.id, pass: revoked.id, reason: "Card lost" }, cookie);
      expect(done.headers.get("Location")).toBe(`/club/${c.id}/passes?saved=passRevoked`);
    }
    const [row] = await db().select().from(passes).where(eq(passes.id, revoked.id));
    expect(row!.revokeReason).toBe("Card lost");
    // Another club's card cannot be revoked from here.
    const elsewhere = await pagePost("localhost", `/club/${c.id}/passes`, { intent: "revoke", target: foreign.id, pass: foreign.id, reason: "x" }, cookie);
    expect(elsewhere.status).toBe(404);

    const link = async (id: string) => `https://pass-gate.localhost${await passCardPath(env, id)}`;
    const ok = await check(c.id, cookie, await link(valid.id));
    expect(ok.text).toContain("<h2>Valid</h2>");
    expect(ok.text).toContain("Val Id");
    expect((await check(c.id, cookie, await link(expired.id))).text).toContain("<h2>Expired</h2>");
    const gone = await check(c.id, cookie, await link(revoked.id));
    expect(gone.text).toContain("<h2>Revoked</h2>");
    expect(gone.text).toContain("Card lost");
    const theirs = await check(c.id, cookie, await link(foreign.id));
    expect(theirs.text).toContain("<h2>Not a pass of this club</h2>");
    expect(theirs.text).not.toContain("For Eign");
    // An edited signature, an id swapped into a real signature, and text that is no card at all.
    const real = await link(valid.id);
    const forged = real.slice(0, -1) + (real.endsWith("A") ? "B" : "A");
    const swapped = real.replace(`p1.${valid.id}`, `p1.${expired.id}`);
    for (const code of [forged, swapped, "HELLO WORLD", "p1.x.y", "'); DROP TABLE passes; --"])
      expect((await check(c.id, cookie, code)).text, code).toContain("<h2>Not recognised</h2>");
    const empty = await check(c.id, cookie, "   ");
    expect(empty.status).toBe(400);
    expect(await check(c.id, cookie, "x", "not-a-uuid")).toMatchObject({ status: 400 });
    const broken = await worker.fetch(
      hostRequest("localhost:8787", `/club/${c.id}/checkin`, {
        method: "POST",
        headers: { "Content-Type": "multipart/form-data; boundary=x", Origin: "http://localhost:8787", "Sec-Fetch-Site": "same-origin", Cookie: cookie },
        body: "junk",
      }),
    );
    expect(broken.status).toBe(400);

    // Each check is recorded once (the same form sent twice), with who and what it said; the card shows its last.
    const checkId = crypto.randomUUID();
    await Promise.all([1, 2].map(() => check(c.id, cookie, real, checkId)));
    const recorded = await db().select().from(passChecks).where(eq(passChecks.clubId, c.id));
    expect(recorded.filter((r) => r.id === checkId)).toHaveLength(1);
    expect(recorded.filter((r) => r.passId === valid.id)).toHaveLength(2);
    expect(recorded.find((r) => r.result === "other_club")!.passId).toBeNull();
    expect(await cardOf(valid.id)).toMatch(/data-testid="pass-last-check">[^<]+\(Valid\)/);
    expect(await cardOf(revoked.id)).toContain("Revoked");
  });

  it("opens a card only with its own signed link", async () => {
    const { site, club: c } = await club("links");
    const { pass } = await issuePass(
      db(),
      {
        clubId: c.id,
        siteId: site.id,
        kind: "pass",
        holderName: "Lin K",
        holderEmail: null,
        season: null,
        validFrom: null,
        validUntil: null,
        source: "test:link",
      },
      Date.now(),
    );
    const { pass: twin } = await issuePass(db(), { ...pass, holderName: "Twin", source: "test:twin" }, Date.now());
    expect((await get(await passCardPath(env, pass.id))).status).toBe(200);
    expect((await get(`/passes/${pass.id}`)).status).toBe(404);
    const twinToken = (await passCardPath(env, twin.id)).split("?t=")[1]!;
    expect((await get(`/passes/${pass.id}?t=${twinToken}`)).status).toBe(404);
    expect((await get(`/passes/not-an-id?t=x`)).status).toBe(404);
    expect((await get(`/passes/${pass.id}?t=${"a".repeat(5000)}`)).status).toBe(404);
  });

  it("lets the club admin and the Division Reports role check in; only the club admin issues; others are refused", async () => {
    const { club: c, cookie } = await club("roles");
    const reports = await userWith("pass-reports", { type: "division_reports", clubId: c.id });
    const registrar = await userWith("pass-registrar", { type: "all_registrations", clubId: c.id });
    const stranger = await userWith("pass-stranger", { type: "org_admin", clubId: (await club("roles-other")).club.id });
    expect((await get(`/club/${c.id}/checkin`, cookie)).status).toBe(200);
    expect((await get(`/club/${c.id}/passes`, cookie)).status).toBe(200);
    expect((await get(`/club/${c.id}/checkin`, reports)).status).toBe(200);
    expect((await get(`/club/${c.id}/passes`, reports)).status).toBe(403);
    expect((await check(c.id, reports, "HELLO")).text).toContain("Not recognised");
    expect((await get(`/club/${c.id}/checkin`, registrar)).status).toBe(403);
    expect((await check(c.id, registrar, "HELLO")).status).toBe(403);
    expect((await get(`/club/${c.id}/checkin`, stranger)).status).toBe(404);
    const refused = await pagePost(
      "localhost",
      `/club/${c.id}/passes`,
      { intent: "issue", submission: crypto.randomUUID(), kind: "pass", holder_name: "X" },
      reports,
    );
    expect(refused.status).toBe(403);
    expect(await db().select().from(passes).where(eq(passes.clubId, c.id))).toHaveLength(0);
  });
});
