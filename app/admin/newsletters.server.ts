/**
 * The newsletter pages of a club (issue 26): the list, and one newsletter's editor with its preview. The
 * editor works without JavaScript: adding, moving and removing blocks answer with the draft as typed, and
 * only Save, Send now and Schedule write, through the entity service (its rules: newsletterRule), so the
 * page and the data API accept and refuse the same. Decision 0049.
 */
import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { can } from "../../core/access/policy";
import { audienceSummary, isLocked, newsletterStateText, type NewsletterAudience } from "../../core/newsletters/mailing";
import { renderNewsletter, type NewsletterBlock } from "../../core/newsletters/render";
import { epochOfLocalInput, localInputOf } from "../../core/time/wall-clock";
import { eq } from "drizzle-orm";
import { clubs, openDb, sites } from "../../schema/d1";
import { originOf } from "../../workers/auth/hosts";
import { EmailNewsletter } from "../../schema/entities/admin-classes";
import { enqueueJob } from "../../workers/jobs";
import { deliverMail } from "../../workers/mail/mailer";
import { changeEntity, createEntity, readVisible, type Caller, type EntityContext, type Refusal } from "../../workers/services/entity-service";
import { unsubscribePath } from "../../workers/services/newsletter-links";
import {
  audienceForms,
  audienceRaceChoices,
  audienceRaces,
  audienceReach,
  clubNewsletter,
  clubNewsletters,
  newsletterLook,
  type NewsletterRow,
} from "../../workers/services/newsletters";
import { requireSession, rolesOf } from "../auth.server";
import { formatRaceDate } from "../format";
import type { PostedForm } from "../forms/posted-form.server";
import type { DraftBlock, NewsletterDraft } from "./newsletter-draft";
import { refuse } from "../forms/posted-form.server";
import { uploadBlockImages } from "./block-uploads.server";
import { clubZone } from "../registration-admin.server";

/** Who opens a club's newsletters: its Organization Admin, its Communications role, or a System Administrator with the emails flag. */
export async function requireNewsletterAccess(request: Request, context: AppLoadContext, clubId: string) {
  const session = requireSession(request, context);
  const principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  if (!/^[0-9a-f-]{36}$/.test(clubId)) throw new Response("Not found", { status: 404 });
  if (!can(principal, "administer", { area: "emails", clubId })) {
    throw principal.roles.some((r) => r.clubId === clubId) ? new Response("Forbidden", { status: 403 }) : new Response("Not found", { status: 404 });
  }
  const db = openDb(context.env.DB);
  const entityContext: EntityContext = { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db };
  const caller: Caller = { principal, userId: session.user.id, appId: "" };
  return { db, entityContext, caller, session, clubId, zone: await clubZone(db, clubId) };
}

export type NewsletterAccess = Awaited<ReturnType<typeof requireNewsletterAccess>>;

export async function newsletterListData(access: NewsletterAccess) {
  const zone = access.zone;
  const list = await clubNewsletters(access.db, access.clubId, access.entityContext.now);
  return list.map((n) => ({ id: n.id, subject: n.subject, state: newsletterStateText(n.state, (at) => formatRaceDate(at, zone)) }));
}

/** A new newsletter: a logo and a header with its subject, to the club's members, then the editor. */
export async function createNewsletter(access: NewsletterAccess, posted: PostedForm) {
  const subject = (posted.values.subject ?? "").trim();
  const submission = posted.values.submission ?? "";
  const created = await createEntity(access.entityContext, access.caller, EmailNewsletter, {
    uuid: submission,
    club: access.clubId,
    subject,
    elements: subject ? [{ type: "logo" }, { type: "header", text: subject }] : [],
    audience: { members: true, registrations: [] },
  });
  if (!created.ok) {
    // The same form sent again (a double click): open what the first one made.
    const made = created.refusal.status === 409 ? await clubNewsletter(access.db, access.clubId, submission, access.entityContext.now) : null;
    if (made) return redirect(`/club/${access.clubId}/newsletters/${submission}`);
    return refuse(posted, errorsOf(created.refusal), created.refusal.status === 400 ? 400 : 403);
  }
  return redirect(`/club/${access.clubId}/newsletters/${created.value.row.uuid}`);
}

function draftOf(elements: readonly NewsletterBlock[]): DraftBlock[] {
  return elements.map((e) => ({
    type: e.type,
    text: "text" in e ? (e.text ?? "") : "",
    image_url: "image_url" in e ? (e.image_url ?? "") : "",
    url: "url" in e ? (e.url ?? "") : "",
  }));
}

export async function newsletterData(access: NewsletterAccess, id: string, userEmail: string) {
  const found = await clubNewsletter(access.db, access.clubId, id, access.entityContext.now);
  if (!found) throw new Response("Not found", { status: 404 });
  const { row, state } = found;
  const { look, origin } = await newsletterLook(access.entityContext.env, access.db, row.clubId);
  const preview = renderNewsletter(row.elements as NewsletterBlock[], look, `${origin}/newsletters/unsubscribe`);
  const [forms, races] = await Promise.all([audienceForms(access.db, row.clubId), audienceRaces(access.db, row.clubId)]);
  return {
    id: row.id,
    clubId: row.clubId,
    locked: isLocked(row.sentTime, access.entityContext.now) || row.dispatchedTime !== null,
    state: newsletterStateText(state, (at) => formatRaceDate(at, access.zone)),
    scheduled: state.kind === "scheduled",
    draft: {
      subject: row.subject,
      blocks: draftOf(row.elements as NewsletterBlock[]),
      members: row.audience.members,
      registrations: row.audience.registrations,
      races: row.audience.races ?? [],
      entrants: row.audience.entrants ?? "entered",
      courses: row.audience.courses ?? [],
      categories: row.audience.categories ?? [],
    },
    forms,
    races,
    ...(await audienceData(access, row, forms, races)),
    scheduleAt: row.sentTime && row.sentTime > access.entityContext.now ? localInputOf(row.sentTime, access.zone) : "",
    zone: access.zone,
    previewHtml: preview.html,
    userEmail,
  };
}

/**
 * The chosen races' courses and categories to filter their entrants by, and the saved audience in words with the
 * readers it reaches today (asked only while it can still change: a sent one shows its delivery counts).
 */
async function audienceData(access: NewsletterAccess, row: NewsletterRow, forms: Named[], races: Named[]) {
  const env = access.entityContext.env;
  const choices = await audienceRaceChoices(env, access.db, row.clubId, row.audience.races ?? []);
  const locked = isLocked(row.sentTime, access.entityContext.now) || row.dispatchedTime !== null;
  const names = { forms: namesOf(forms), races: namesOf(races), courses: new Map(choices.courses.map((c) => [c.id, `${c.name} (${c.race})`])) };
  const readers = locked ? null : await audienceReach(env, access.db, row.clubId, row.audience, access.entityContext.now);
  return { courses: choices.courses, categories: choices.categories, summary: audienceSummary(row.audience, names), readers };
}

type Named = { id: string; name: string };
const namesOf = (list: readonly Named[]) => new Map(list.map((n) => [n.id, n.name]));

/** The blocks as the entity stores them: only the fields each kind has, empty optional ones left out. */
function elementsOf(blocks: readonly DraftBlock[]): unknown[] {
  const given = (value: string) => (value.trim() === "" ? undefined : value.trim());
  return blocks.map((b) => {
    switch (b.type) {
      case "header":
      case "text":
        return { type: b.type, text: b.text };
      case "image":
        return { type: "image", image_url: b.image_url.trim(), url: given(b.url), text: given(b.text) };
      case "button":
        return { type: "button", text: b.text, url: b.url.trim() };
      case "logo":
        return { type: "logo", image_url: given(b.image_url), url: given(b.url) };
    }
  });
}

export const draftReply = (draft: NewsletterDraft, errors: Record<string, string> = {}, status = 200) => data({ draft, errors }, { status });

/** The field errors of a refusal, keyed as the editor names its inputs (elements.2.url → b2.url). */
function errorsOf(refusal: Refusal): Record<string, string> {
  const fields = refusal.body.fields;
  if (!fields || Array.isArray(fields)) return { form: refusal.body.message };
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(fields as Record<string, string>)) {
    const block = /^elements\.(\d+)\.(\w+)/.exec(key);
    errors[block ? `b${block[1]}.${block[2]}` : key] ??= message;
  }
  return errors;
}

/** Saves the draft, and with `sendAt` schedules it (null unschedules); the errors by field when refused. */
export async function saveNewsletter(access: NewsletterAccess, id: string, draft: NewsletterDraft, sendAt: number | null | undefined) {
  const stored = await readVisible(access.entityContext, access.caller, EmailNewsletter, id);
  if (!stored || stored.row.club !== access.clubId) throw new Response("Not found", { status: 404 });
  const audience: NewsletterAudience = {
    members: draft.members,
    registrations: draft.registrations,
    races: draft.races,
    entrants: draft.entrants,
    courses: draft.courses,
    categories: draft.categories,
  };
  const body: Record<string, unknown> = { subject: draft.subject, elements: elementsOf(draft.blocks), audience };
  if (sendAt !== undefined) body.sent_time = sendAt;
  const changed = await changeEntity(access.entityContext, access.caller, EmailNewsletter, stored, body, undefined);
  return changed.ok ? ({ ok: true } as const) : ({ ok: false, errors: errorsOf(changed.refusal) } as const);
}

/** "Send now": saved with this moment as its time, and its dispatch queued at once rather than at the next sweep. */
export async function sendNow(access: NewsletterAccess, id: string, draft: NewsletterDraft) {
  const saved = await saveNewsletter(access, id, draft, access.entityContext.now);
  if (saved.ok) await enqueueJob(access.entityContext.env, { kind: "dispatch-newsletter", newsletterId: id });
  return saved;
}

/** The time typed in the club's zone, or an error in the page's words. */
export function scheduledTime(posted: PostedForm, zone: string): { ok: true; at: number } | { ok: false; errors: Record<string, string> } {
  const at = epochOfLocalInput(posted.values.at ?? "", zone);
  return at === null ? { ok: false, errors: { at: "Enter the date and time to send it" } } : { ok: true, at };
}

/** A test copy to the signed-in person only, of the newsletter as saved, its subject marked as a test. */
export async function sendTest(access: NewsletterAccess, id: string, to: string) {
  const found = await clubNewsletter(access.db, access.clubId, id, access.entityContext.now);
  if (!found) throw new Response("Not found", { status: 404 });
  const { look, origin } = await newsletterLook(access.entityContext.env, access.db, found.row.clubId);
  const mail = renderNewsletter(
    found.row.elements as NewsletterBlock[],
    look,
    `${origin}${await unsubscribePath(access.entityContext.env, found.row.clubId, to)}`,
  );
  await deliverMail(access.entityContext.env, access.db, { to, subject: `[Test] ${found.row.subject}`, text: mail.text, html: mail.html });
}

/**
 * Images chosen in the editor's image blocks, uploaded to the club's site; the block keeps the whole address
 * on the site's host, since a mail program has no page to resolve a path against (decision 0056).
 */
export async function withNewsletterUploads(access: NewsletterAccess, draft: NewsletterDraft, posted: PostedForm) {
  if (!Object.values(posted.files).some((file) => file.size > 0)) return { draft, errors: {} as Record<string, string> };
  const [club] = await access.db
    .select({ siteId: clubs.siteId, hostname: sites.hostname })
    .from(clubs)
    .leftJoin(sites, eq(sites.id, clubs.siteId))
    .where(eq(clubs.id, access.clubId))
    .limit(1);
  const env = access.entityContext.env;
  const origin = club?.hostname ? originOf(env, club.hostname) : "";
  const uploaded = await uploadBlockImages(env, club?.hostname ? club.siteId : null, posted.files, draft.blocks, (path) => `${origin}${path}`);
  return { draft: { ...draft, blocks: uploaded.blocks }, errors: uploaded.errors };
}
