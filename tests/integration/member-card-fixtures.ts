/** A club with a division and a running season, members added by hand, their cards and card mails (decision 0063). */
import { and, eq, like } from "drizzle-orm";
import { expect } from "vitest";
import { DAY_MS } from "../../core/memberships/reminders";
import { capturedMail, divisionSeasons, divisions, passes, passMails } from "../../schema/d1";
import { createUserWithPassword, db, pageGet, pagePost, signIn } from "./auth-fixtures";
import { consumeMail, createSiteWithRace } from "./fixtures";
import { apiCall, createApp, issueToken } from "./oauth-fixtures";

export const PASSWORD = "lantern-card-42";
export const HOST = "localhost";
export const ADMIN = "admin.localhost";
export const get = (path: string, cookie?: string, host = HOST) => pageGet(host, path, cookie);

export const call = (token: string, method: string, path: string, body?: unknown) => apiCall(HOST, token, method, path, body);

/** A club on its own site with a division, its admin (page cookie and API token) and a running season. */
export async function clubWithDivision(tag: string) {
  const unique = `${tag}-${crypto.randomUUID().slice(0, 6)}`;
  const { site, club } = await createSiteWithRace(db(), { hostname: `${unique}.localhost`, siteName: `Cards ${tag}`, raceName: `Cards race ${tag}` });
  const email = `card-${unique}@example.com`;
  const user = await createUserWithPassword(email, PASSWORD, [{ type: "org_admin", clubId: club.id }]);
  const cookie = await signIn(HOST, email, PASSWORD);
  const token = await issueToken(user.id, await createApp({ scopes: "divisions passes" }), HOST, "divisions passes");
  const owners = { clubId: club.id, siteId: site.id };
  const division = { id: crypto.randomUUID(), ...owners, name: `Members ${tag}`, fieldMtimes: {} };
  await db().insert(divisions).values(division);
  const day = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const season = { id: crypto.randomUUID(), divisionId: division.id, ...owners, name: "Current", startsAt: day - 30 * DAY_MS, endsAt: day + 10 * DAY_MS };
  const next = { id: crypto.randomUUID(), divisionId: division.id, ...owners, name: "Next", startsAt: season.endsAt, endsAt: season.endsAt + 365 * DAY_MS };
  await db()
    .insert(divisionSeasons)
    .values([season, next].map((s) => ({ ...s, fieldMtimes: {} })));
  return { unique, site, club, user, cookie, token, division, season, next };
}

export type Club = Awaited<ReturnType<typeof clubWithDivision>>;

/** Adds a member on the division page and returns the membership's id. */
export async function addByHand(f: Club, name: string, fields: Record<string, string> = {}) {
  const submission = crypto.randomUUID();
  const reply = await pagePost(
    HOST,
    `/org/${f.division.id}/home`,
    {
      intent: "add",
      submission,
      first_name: name,
      last_name: "Card",
      birth_date: "2010-05-06",
      email: `${name.toLowerCase()}-${f.unique}@example.com`,
      season: f.season.id,
      member_class: "racing",
      note: "",
      ...fields,
    },
    f.cookie,
  );
  expect(reply.status, (await reply.clone().text()).slice(-400)).toBe(302);
  return submission;
}

export const cardOfMember = async (clubId: string, memberId: string) =>
  (
    await db()
      .select()
      .from(passes)
      .where(and(eq(passes.clubId, clubId), like(passes.source, `member:${memberId}%`)))
  )[0]!;

/** Runs the mail consumer on messages, as the queue would deliver them. */
export const consume = (bodies: unknown[], attempts = 1) =>
  consumeMail(
    bodies.map((body) => ({ body })),
    attempts,
  );

/** Delivers a card's waiting mails (the real queue may take some first: the claim keeps each to one mail). */
export async function deliverCardMails(passId: string) {
  const rows = await db().select().from(passMails).where(eq(passMails.passId, passId));
  await consume(rows.map((r) => ({ passMail: r.id })));
  for (let i = 0; i < 50; i++) {
    const open = (await db().select().from(passMails).where(eq(passMails.passId, passId))).filter((r) => r.state === "queued" || r.state === "sending");
    if (open.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("Card mails still waiting");
}

export const mailsTo = (address: string) => db().select().from(capturedMail).where(eq(capturedMail.to, address));
export const cardPath = (text: string) => /https?:\/\/[^/\s]+(\/passes\/[^\s]+)/.exec(text)?.[1] ?? "";
