/**
 * A site's pages on /site/{site}/pages (issue 26, decision 0053): the list, a new page, and one page's editor
 * with its preview, in English and (when the site offers it) French. Every write goes through the entity
 * service (Page, its rule pageRule), so these pages and the data API refuse the same with the same words.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { can, effectiveRoles, type Principal } from "../../core/access/policy";
import { normalisePagePath } from "../../core/sites/page-paths";
import { openDb } from "../../schema/d1";
import { Page } from "../../schema/entities/admin-classes";
import { WhitelabelSite } from "../../schema/entities/classes";
import { readPageBody } from "../../schema/wire/page-blocks";
import { createEntity, changeEntity, readVisible, removeEntity, type Caller, type EntityContext, type Refusal } from "../../workers/services/entity-service";
import { sitePageList } from "../../workers/services/site-content";
import { siteTarget } from "../../workers/services/invitation-targets";
import { requireSession } from "../auth.server";
import { refuse, type PostedForm } from "../forms/posted-form.server";
import { requireTargetPage } from "./people.server";
import { bodyOf, draftBlocksOf, type PageDraft } from "./page-draft";

/** The site's administrators, and System Administrators with the sites flag (as the site settings page). */
export async function requireSitePages(request: Request, context: AppLoadContext, siteId: string) {
  const session = requireSession(request, context);
  const target = await siteTarget(openDb(context.env.DB), siteId);
  const page = await requireTargetPage({ env: context.env, session }, target, (principal) =>
    effectiveRoles(principal).some(
      (r) => (r.type === "site_admin" && r.siteId === siteId) || (r.type === "system_admin" && can(principal, "view", { area: "sites", id: siteId })),
    ),
  );
  const entityContext: EntityContext = { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db: page.db };
  const caller: Caller = { principal: page.principal, userId: page.principal.userId, appId: "" };
  return { ...page, target: target!, siteId: target!.id, entityContext, caller, hostname: await siteHostname(context, page.db, page.principal, target!.id) };
}

export type SitePagesAccess = Awaited<ReturnType<typeof requireSitePages>>;

async function siteHostname(context: AppLoadContext, db: ReturnType<typeof openDb>, principal: Principal, siteId: string) {
  const ctx: EntityContext = { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db };
  const stored = await readVisible(ctx, { principal, userId: principal.userId, appId: "" }, WhitelabelSite, siteId);
  const config = stored?.row.config as { french?: boolean } | undefined;
  return { hostname: stored ? String(stored.row.hostname) : "", french: config?.french === true };
}

export const TAKEN = "Another page of this site is already at this address; choose another";

export const pagesBase = (siteId: string) => `/site/${siteId}/pages`;

export async function pageListData(access: SitePagesAccess) {
  return { pages: await sitePageList(access.db, access.siteId), hostname: access.hostname.hostname };
}

/** A new draft page with its title and address; the same form sent twice opens the page the first one made. */
export async function createPage(access: SitePagesAccess, posted: PostedForm) {
  const submission = posted.values.submission ?? "";
  const title = (posted.values.title ?? "").trim();
  const path = normalisePagePath(posted.values.path ?? "");
  const created = await createEntity(access.entityContext, access.caller, Page, {
    uuid: submission,
    site: access.siteId,
    title,
    path,
    body: "[]",
    is_published: false,
  });
  if (created.ok) return redirect(`${pagesBase(access.siteId)}/${created.value.row.uuid}`);
  const made = created.refusal.status === 409 ? await readVisible(access.entityContext, access.caller, Page, submission) : null;
  if (made && made.row.site === access.siteId) return redirect(`${pagesBase(access.siteId)}/${submission}`);
  return refuse(posted, errorsOf(created.refusal), created.refusal.status === 409 ? 409 : created.refusal.status === 403 ? 403 : 400);
}

async function storedPage(access: SitePagesAccess, id: string) {
  const stored = /^[0-9a-f-]{36}$/.test(id) ? await readVisible(access.entityContext, access.caller, Page, id) : null;
  if (!stored || stored.row.site !== access.siteId) throw new Response("Not found", { status: 404 });
  return stored;
}

/** One page for its editor in a language: the draft as saved, and the preview of what visitors would see. */
export async function pageEditorData(access: SitePagesAccess, id: string, lang: "en" | "fr") {
  const { row } = await storedPage(access, id);
  const french = lang === "fr";
  const body = readPageBody(String((french ? row.body_fr : row.body) ?? ""));
  const title = String((french ? row.title_fr : row.title) ?? "");
  return {
    id,
    lang,
    frenchOffered: access.hostname.french,
    published: row.is_published === true,
    path: String(row.path),
    englishTitle: String(row.title),
    hostname: access.hostname.hostname,
    draft: { title, path: String(row.path), blocks: draftBlocksOf(body) } satisfies PageDraft,
    preview: body,
  };
}

/** Saves the draft in its language; `publish` true or false also publishes or takes the page down. */
export async function savePage(access: SitePagesAccess, id: string, lang: "en" | "fr", draft: PageDraft, publish?: boolean) {
  const stored = await storedPage(access, id);
  const french = lang === "fr";
  const title = draft.title.trim();
  const body: Record<string, unknown> = french
    ? { title_fr: title === "" ? null : title, body_fr: draft.blocks.length === 0 ? null : bodyOf(draft.blocks) }
    : { title, path: normalisePagePath(draft.path), body: bodyOf(draft.blocks) };
  if (publish !== undefined) body.is_published = publish;
  const changed = await changeEntity(access.entityContext, access.caller, Page, stored, body, undefined);
  return changed.ok ? ({ ok: true } as const) : ({ ok: false, errors: errorsOf(changed.refusal), status: changed.refusal.status } as const);
}

export async function deletePage(access: SitePagesAccess, id: string) {
  const stored = await readVisible(access.entityContext, access.caller, Page, id);
  // Deleted already (a second click): the list is where the first one went.
  if (!stored || stored.row.site !== access.siteId) return redirect(`${pagesBase(access.siteId)}?saved=deleted`);
  const removed = await removeEntity(access.entityContext, access.caller, Page, stored);
  if (!removed.ok) throw new Response(removed.refusal.body.message, { status: removed.refusal.status });
  return redirect(`${pagesBase(access.siteId)}?saved=deleted`);
}

/** A refusal's words by the editor's inputs: body.2.url → b2.url, title_fr → title. */
function errorsOf(refusal: Refusal): Record<string, string> {
  const fields = refusal.body.fields;
  if (!fields || Array.isArray(fields)) {
    const field = /^Invalid value for '(\w+)': (.*)$/.exec(refusal.body.message);
    if (field?.[1] === "title" || field?.[1] === "title_fr") return { title: "Enter the page's title, at most 200 characters" };
    return field ? { [field[1]!.replace(/_fr$/, "")]: field[2]! } : { form: refusal.body.message };
  }
  const errors: Record<string, string> = {};
  // The unique index's words name the class; a club reads of its page and its site.
  if (refusal.status === 409 && "path" in fields) return { path: TAKEN };
  for (const [key, message] of Object.entries(fields as Record<string, string>)) {
    const block = /^body(?:_fr)?\.(\d+)\.(\w+)/.exec(key);
    errors[block ? `b${block[1]}.${block[2]}` : key.replace(/_fr$/, "")] ??= message;
  }
  return errors;
}
