/**
 * A club's event pages on /club/{club}/events (issue 26, decision 0056): the list with a new page, and one
 * page's editor with its banner. Every write goes through the entity service (EventPage, its rule
 * eventPageRule), so these pages, /_admin/eventpages and the data API refuse the same with the same words.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { asc, desc, eq } from "drizzle-orm";
import * as z from "zod";
import { can } from "../../core/access/policy";
import { clubs, eventPages, openDb, races, registrations, sites, type Db } from "../../schema/d1";
import { EventPage } from "../../schema/entities/admin-classes";
import { originOf } from "../../workers/auth/hosts";
import { acceptSiteImage } from "../../workers/media";
import { changeEntity, createEntity, readVisible, removeEntity, type Caller, type EntityContext } from "../../workers/services/entity-service";
import { requireSession, rolesOf } from "../auth.server";
import { fieldErrorsOf } from "../../core/entity/field-errors";
import { pageUrl, refuse, type PostedForm } from "../forms/posted-form.server";
import { errorsOfRefusal } from "./entity-form.server";

/** Who edits a club's event pages: its Organization Admin, and System Administrators with the Event Pages flag. */
export async function requireEventPages(request: Request, context: AppLoadContext, clubId: string) {
  const session = requireSession(request, context);
  const principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  if (!/^[0-9a-f-]{36}$/.test(clubId)) throw new Response("Not found", { status: 404 });
  if (!can(principal, "administer", { area: "eventpages", clubId })) {
    throw principal.roles.some((r) => r.clubId === clubId) ? new Response("Forbidden", { status: 403 }) : new Response("Not found", { status: 404 });
  }
  const db = openDb(context.env.DB);
  const [club] = await db
    .select({ siteId: clubs.siteId, hostname: sites.hostname })
    .from(clubs)
    .leftJoin(sites, eq(sites.id, clubs.siteId))
    .where(eq(clubs.id, clubId))
    .limit(1);
  if (!club) throw new Response("Not found", { status: 404 });
  const entityContext: EntityContext = { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db };
  const caller: Caller = { principal, userId: session.user.id, appId: "" };
  const origin = club.hostname ? originOf(context.env, club.hostname) : null;
  return { db, entityContext, caller, clubId, siteId: club.siteId, origin };
}

export type EventPagesAccess = Awaited<ReturnType<typeof requireEventPages>>;

export const eventsBase = (clubId: string) => `/club/${clubId}/events`;

/** The club's event pages, newest dates first, drafts too. */
export async function eventListData(access: EventPagesAccess) {
  const rows = await access.db
    .select({
      id: eventPages.id,
      name: eventPages.name,
      title: eventPages.title,
      path: eventPages.pageUrl,
      start: eventPages.startDate,
      isPublic: eventPages.isPublic,
    })
    .from(eventPages)
    .where(eq(eventPages.clubId, access.clubId))
    .orderBy(desc(eventPages.startDate), asc(eventPages.name));
  return rows.map((r) => ({ id: r.id, title: r.title || r.name, path: r.path, start: r.start, state: r.isPublic && r.path ? "Public" : "Draft" }));
}

/** A new draft event with its name; the same form sent twice (a double click) opens the page the first one made. */
export async function createEventPage(access: EventPagesAccess, posted: PostedForm) {
  const submission = posted.values.submission ?? "";
  const created = await createEntity(access.entityContext, access.caller, EventPage, {
    uuid: submission,
    club: access.clubId,
    name: (posted.values.name ?? "").trim(),
    // A new page is a draft until its organiser publishes it: visitors never see a half-written event.
    is_public: false,
  });
  if (created.ok) return redirect(`${eventsBase(access.clubId)}/${created.value.row.uuid}`);
  const made = created.refusal.status === 409 ? await storedEvent(access, submission).catch(() => null) : null;
  if (made) return redirect(`${eventsBase(access.clubId)}/${submission}`);
  const status = created.refusal.status;
  return refuse(posted, errorsOfRefusal(created.refusal.body, ["name"]), status === 403 || status === 404 || status === 409 ? status : 400);
}

async function storedEvent(access: EventPagesAccess, id: string) {
  const stored = /^[0-9a-f-]{36}$/.test(id) ? await readVisible(access.entityContext, access.caller, EventPage, id) : null;
  if (!stored || stored.row.club !== access.clubId) throw new Response("Not found", { status: 404 });
  return stored;
}

/** The club's own races and forms, which an event may link (the rule refuses any other). */
async function linkables(db: Db, clubId: string) {
  const [raceRows, formRows] = await Promise.all([
    db.select({ id: races.id, name: races.name, start: races.startTime }).from(races).where(eq(races.clubId, clubId)).orderBy(desc(races.startTime)).limit(500),
    db
      .select({ id: registrations.id, name: registrations.name })
      .from(registrations)
      .where(eq(registrations.clubId, clubId))
      .orderBy(asc(registrations.name))
      .limit(500),
  ]);
  return { races: raceRows, forms: formRows };
}

const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** The fields the editor shows, as the entity stores them. */
export const EDITED = [
  "name",
  "title",
  "year",
  "start_date",
  "end_date",
  "page_url",
  "description",
  "sport",
  "header_option",
  "event_status",
  "location",
  "is_public",
  "race_ids",
  "registration_ids",
] as const;

/** One event for its editor: what is stored, the club's races and forms, and where the page is on the site. */
export async function eventEditorData(access: EventPagesAccess, id: string) {
  const stored = await storedEvent(access, id);
  const row = stored.row;
  const original = Object.fromEntries(EDITED.map((f) => [f, row[f] ?? null]));
  const path = typeof row.page_url === "string" ? row.page_url : null;
  return {
    id,
    event: original as Record<(typeof EDITED)[number], unknown>,
    raceIds: idsOf(row.race_ids),
    formIds: idsOf(row.registration_ids),
    bannerUrl: typeof row.banner_url === "string" ? row.banner_url : null,
    hasSite: access.siteId !== null,
    siteUrl: access.origin && path && row.is_public === true ? `${access.origin}/events/${path}` : null,
    original: JSON.stringify(original),
    mtimes: JSON.stringify(stored.mtimes),
    ...(await linkables(access.db, access.clubId)),
  };
}

const INCOMPLETE = "The form was incomplete. Reload the page and try again.";

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? null : v));

/** The posted editor as the entity's values; the entity's own schemas and rule judge them. */
const eventForm = z.object({
  name: z.string().trim(),
  title: optionalText,
  year: z
    .string()
    .trim()
    .refine((v) => v === "" || /^\d{4}$/.test(v), "Enter a year such as 2027")
    .transform((v) => (v === "" ? null : Number(v))),
  start_date: optionalText,
  end_date: optionalText,
  page_url: optionalText.transform((v) => v?.toLowerCase().replace(/^\/?(events\/)?/, "") || null),
  description: optionalText,
  sport: optionalText,
  location: optionalText,
  header_option: z.string(),
  event_status: z.string(),
  is_public: z
    .string()
    .optional()
    .transform((v) => v === "on"),
  original: z.string().transform((text, ctx) => {
    try {
      return z.record(z.string(), z.unknown()).parse(JSON.parse(text));
    } catch {
      ctx.addIssue({ code: "custom", message: INCOMPLETE });
      return z.NEVER;
    }
  }),
  mtimes: z.string().transform((text, ctx) => {
    try {
      return z.record(z.string(), z.number().int().nonnegative()).parse(JSON.parse(text));
    } catch {
      ctx.addIssue({ code: "custom", message: INCOMPLETE });
      return z.NEVER;
    }
  }),
});

/** The ticked boxes `{prefix}:{id}` in the order their position boxes give (ties keep the page's order). */
export function linkedInOrder(values: Readonly<Record<string, string>>, prefix: string): string[] {
  const ticked = Object.keys(values)
    .filter((key) => key.startsWith(`${prefix}:`) && values[key] === "on")
    .map((key, index) => {
      const id = key.slice(prefix.length + 1);
      const position = Number(values[`${prefix}_order:${id}`]);
      return { id, index, position: Number.isFinite(position) ? position : Number.MAX_SAFE_INTEGER };
    });
  return ticked.sort((a, b) => a.position - b.position || a.index - b.index).map((t) => t.id);
}

/** Saves the fields changed since the page was opened, each against the time it was read: a newer change is refused (409). */
export async function saveEventPage(access: EventPagesAccess, id: string, posted: PostedForm) {
  const stored = await storedEvent(access, id);
  const parsed = eventForm.safeParse(posted.values);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error.issues);
    // What the page sent back of its own (the values and times it was drawn from) has no input to mark.
    if (errors.original || errors.mtimes) errors.form = INCOMPLETE;
    return refuse(posted, errors);
  }
  const { original, mtimes, ...fields } = parsed.data;
  const next: Record<string, unknown> = { ...fields, race_ids: linkedInOrder(posted.values, "race"), registration_ids: linkedInOrder(posted.values, "form") };
  const changed = Object.fromEntries(Object.entries(next).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(original[key] ?? null)));
  if (Object.keys(changed).length === 0) return redirect(pageUrl(`${eventsBase(access.clubId)}/${id}`, "saved"));
  const base = Object.fromEntries(Object.keys(changed).map((key) => [key, mtimes[key] ?? 0]));
  const saved = await changeEntity(access.entityContext, access.caller, EventPage, stored, changed, base);
  if (saved.ok) return redirect(pageUrl(`${eventsBase(access.clubId)}/${id}`, "saved"));
  const status = saved.refusal.status;
  return refuse(posted, errorsOfRefusal(saved.refusal.body, EDITED), status === 403 || status === 404 || status === 409 ? status : 400);
}

/** Uploads a banner (checked by its bytes, stored by its hash on the club's site) or removes it (`remove=1`). */
export async function saveBanner(access: EventPagesAccess, id: string, posted: PostedForm) {
  const stored = await storedEvent(access, id);
  let banner: string | null = null;
  if (posted.values.remove !== "1") {
    if (!access.siteId) return refuse(posted, { banner: "This club has no site to keep images on" });
    const uploaded = await acceptSiteImage(access.entityContext.env, access.siteId, posted.files.banner, "banner");
    if (!uploaded.ok) return refuse(posted, { banner: uploaded.message });
    banner = uploaded.url;
  }
  const saved = await changeEntity(access.entityContext, access.caller, EventPage, stored, { banner_url: banner }, undefined);
  if (saved.ok) return redirect(pageUrl(`${eventsBase(access.clubId)}/${id}`, "saved"));
  return refuse(posted, { banner: saved.refusal.body.message }, saved.refusal.status === 403 ? 403 : 400);
}

export async function deleteEventPage(access: EventPagesAccess, id: string) {
  const stored = /^[0-9a-f-]{36}$/.test(id) ? await readVisible(access.entityContext, access.caller, EventPage, id) : null;
  // Deleted already (a second click): the list is where the first one went.
  if (!stored || stored.row.club !== access.clubId) return redirect(pageUrl(eventsBase(access.clubId), "deleted"));
  const removed = await removeEntity(access.entityContext, access.caller, EventPage, stored);
  if (!removed.ok) throw new Response(removed.refusal.body.message, { status: removed.refusal.status });
  return redirect(pageUrl(eventsBase(access.clubId), "deleted"));
}
