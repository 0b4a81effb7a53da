/**
 * The pages of passes and member cards (issue 27, decision 0050): a club's Passes page (issue by hand, revoke),
 * its check-in page, and the public card behind a signed link. Rules and writes are in
 * workers/services/passes.ts; this file guards, parses and shapes what the pages show.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";
import { can, type Action } from "../core/access/policy";
import { CHECK_RESULT_TEXT, PASS_MESSAGES, passState, type CheckResult } from "../core/passes/pass-status";
import { clubs, openDb } from "../schema/d1";
import { issueCard, lastCardMails, sendAgainSchema, sendCardAgain } from "../workers/services/card-mails";
import { checkIn, clubPasses, clubToday, handIssue, handPassSchema, passCard, passCardPath, revokePass, revokeSchema } from "../workers/services/passes";
import { requireSession, rolesOf } from "./auth.server";
import { formatRaceDate } from "./format";
import { pageUrl, parseForm, refuse, type PostedForm } from "./forms/posted-form.server";
import { clubZone } from "./registration-admin.server";

/** Check-in is "view" on passes (the Organization Admin, Division Reports); issuing and revoking is "administer". */
export async function requirePassAccess(request: Request, context: AppLoadContext, clubId: string, action: Action) {
  const session = requireSession(request, context);
  const principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  if (!/^[0-9a-f-]{36}$/.test(clubId)) throw new Response("Not found", { status: 404 });
  if (!can(principal, action, { area: "passes", clubId })) {
    throw principal.roles.some((r) => r.clubId === clubId) ? new Response("Forbidden", { status: 403 }) : new Response("Not found", { status: 404 });
  }
  const db = openDb(context.env.DB);
  const [club] = await db.select({ id: clubs.id, name: clubs.name, siteId: clubs.siteId }).from(clubs).where(eq(clubs.id, clubId)).limit(1);
  if (!club) throw new Response("Not found", { status: 404 });
  return { db, club, userId: session.user.id, mayAdminister: can(principal, "administer", { area: "passes", clubId }) };
}

export type PassAccess = Awaited<ReturnType<typeof requirePassAccess>>;

const kindText = (kind: string) => (kind === "member_card" ? "Member card" : "Season pass");

export async function passListData(context: AppLoadContext, access: PassAccess) {
  const now = context.now;
  const today = await clubToday(access.db, access.club.id, now);
  const [rows, mails] = await Promise.all([clubPasses(access.db, access.club.id), lastCardMails(access.db, access.club.id)]);
  const zone = await clubZone(access.db, access.club.id);
  return Promise.all(
    rows.map(async (p) => ({
      id: p.id,
      number: p.number ?? "",
      holder: p.holderName,
      kind: kindText(p.kind),
      season: p.season ?? "",
      valid: [p.validFrom, p.validUntil].filter(Boolean).join(" – "),
      state: CHECK_RESULT_TEXT[passState(p, today)],
      reason: p.revokeReason ?? "",
      card: await passCardPath(context.env, p.id),
      email: p.holderEmail ?? "",
      mail: mailText(mails.get(p.id), p.holderEmail, zone),
    })),
  );
}

export async function issuePassByHand(context: AppLoadContext, access: PassAccess, posted: PostedForm) {
  const parsed = parseForm(handPassSchema, posted);
  if (!parsed.ok) return parsed.reply;
  // Sent twice, the second finds the card the first issued (its one-time id is its source) and mails nothing more.
  await issueCard(context.env, access.db, handIssue(access.club, parsed.value), context.now);
  return redirect(pageUrl(`/club/${access.club.id}/passes`, "passIssued"));
}

export async function revokePassByHand(context: AppLoadContext, access: PassAccess, posted: PostedForm) {
  const parsed = parseForm(revokeSchema, posted);
  if (!parsed.ok) return parsed.reply;
  const author = { userId: access.userId, appId: null, at: context.now };
  const revoked = await revokePass(access.db, access.club.id, parsed.value.pass, parsed.value.reason, author);
  // A second click finds it revoked already: the page shows it revoked, which is what was asked.
  if (!revoked) {
    const known = (await clubPasses(access.db, access.club.id)).find((p) => p.id === parsed.value.pass);
    if (!known) return refuse(posted, { form: "There is no such card, or it is not this club's." }, 404);
  }
  return redirect(pageUrl(`/club/${access.club.id}/passes`, "passRevoked"));
}

/** "Send the card again": its one-time id mails once however often the form is sent. */
export async function sendCardAgainByHand(context: AppLoadContext, access: PassAccess, posted: PostedForm) {
  const parsed = parseForm(sendAgainSchema, posted);
  if (!parsed.ok) return parsed.reply;
  const sent = await sendCardAgain(context.env, access.db, access.club.id, parsed.value, context.now);
  if (!sent.ok) return refuse(posted, { form: sent.message }, sent.status);
  return redirect(pageUrl(`/club/${access.club.id}/passes`, "cardSent"));
}

const MAIL_STATES: Record<string, string> = { queued: "Waiting to be sent", sending: "Sending", sent: "Sent", failed: "Could not be delivered" };

/** The card's last mail in words: "Sent Nov 27, 2026, 3:40 p.m.", or why there is none. */
function mailText(mail: { state: string; at: number } | undefined, email: string | null, zone: string): string {
  if (!email) return "No address";
  if (!mail) return "Not sent";
  return mail.state === "sent" ? `Sent ${formatRaceDate(mail.at, zone)}` : (MAIL_STATES[mail.state] ?? mail.state);
}

export interface CheckReply {
  result: CheckResult;
  text: string;
  holder: string | null;
  kind: string | null;
  detail: string | null;
}

const scannedSchema = { min: 1, max: 2000 };

/** One check at the gate: the scanned text, its one-time id; the answer in the issue's words. */
export async function checkPassAtGate(context: AppLoadContext, access: PassAccess, posted: PostedForm) {
  const scanned = (posted.values.code ?? "").trim();
  const checkId = posted.values.check ?? "";
  if (scanned.length < scannedSchema.min || scanned.length > scannedSchema.max) return refuse(posted, { code: PASS_MESSAGES.scanned });
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(checkId)) return refuse(posted, { form: "Reload the page and scan again." });
  const outcome = await checkIn(context.env, access.db, { clubId: access.club.id, userId: access.userId, scanned, checkId }, context.now);
  const pass = outcome.pass;
  const detail = pass
    ? outcome.result === "revoked"
      ? (pass.revokeReason ?? null)
      : outcome.result === "expired" && pass.validUntil
        ? `Valid until ${pass.validUntil}`
        : [pass.season, pass.number ? `No. ${pass.number}` : ""].filter(Boolean).join(" · ") || null
    : null;
  return {
    // The next scan's one-time id comes with this answer: the form is not drawn afresh (a scanner may type on).
    next: crypto.randomUUID(),
    check: {
      result: outcome.result,
      text: CHECK_RESULT_TEXT[outcome.result],
      holder: pass?.holderName ?? null,
      kind: pass ? kindText(pass.kind) : null,
      detail,
    },
  };
}

/** The public card: 404 for a link that is not ours, so an id alone shows nothing. */
export async function passCardData(context: AppLoadContext, request: Request, passId: string) {
  const token = new URL(request.url).searchParams.get("t") ?? "";
  if (!/^[0-9a-f-]{36}$/.test(passId) || token.length > 200) throw new Response("Not found", { status: 404 });
  const db = openDb(context.env.DB);
  const card = await passCard(context.env, db, passId, token, new URL(request.url).origin, context.now);
  if (!card) throw new Response("Not found", { status: 404 });
  const zone = await clubZone(db, card.pass.clubId);
  const { pass } = card;
  return {
    holder: pass.holderName,
    club: card.clubName,
    kind: kindText(pass.kind),
    season: pass.season ?? "",
    number: pass.number ?? "",
    validFrom: pass.validFrom ?? "",
    validUntil: pass.validUntil ?? "",
    status: CHECK_RESULT_TEXT[card.state],
    statusKey: card.state,
    lastCheck: card.lastCheck ? `${formatRaceDate(card.lastCheck.checkedAt, zone)} (${CHECK_RESULT_TEXT[card.lastCheck.result]})` : null,
    qrSvg: card.qrSvg,
  };
}
