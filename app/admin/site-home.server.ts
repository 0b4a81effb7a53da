/**
 * The home page editor on /site/{site}/home (decision 0056): the site's home blocks, saved as its config's
 * `home` through the entity service (WhitelabelSite), so the data API and this page refuse the same, the save
 * bumps the site's content version (the edge cache), and a save over a newer change is refused (409).
 */
import { redirect } from "@remix-run/cloudflare";
import { WhitelabelSite } from "../../schema/entities/classes";
import { homeBlocksSchema } from "../../schema/wire/page-blocks";
import { siteConfigSchema } from "../../schema/wire/site-config";
import { changeEntity, readVisible, type Refusal } from "../../workers/services/entity-service";
import type { PostedForm } from "../forms/posted-form.server";
import { homeListsFor } from "../site-home.server";
import { blockDraftReply } from "./block-uploads.server";
import { homeBlocksOf, homeDraftOf, type HomeDraft } from "./home-draft";
import type { SitePagesAccess } from "./site-pages.server";

export const homeBase = (siteId: string) => `/site/${siteId}/home`;

async function storedSite(access: SitePagesAccess) {
  const stored = await readVisible(access.entityContext, access.caller, WhitelabelSite, access.siteId);
  if (!stored) throw new Response("Not found", { status: 404 });
  return stored;
}

/** The saved blocks for the editor, the preview's lists, and the config's time (a newer save is refused). */
export async function homeEditorData(access: SitePagesAccess) {
  const stored = await storedSite(access);
  const home = homeBlocksSchema.safeParse((stored.row.config as { home?: unknown } | null)?.home ?? []);
  const blocks = home.success ? home.data : [];
  return {
    draft: homeDraftOf(blocks),
    preview: { blocks, ...(await homeListsFor(access.db, access.siteId, access.entityContext.now, blocks)) },
    hostname: access.hostname.hostname,
    mtime: stored.mtimes.config ?? 0,
  };
}

/** Saves the blocks into the site's config; an empty list brings back the default home page. */
export async function saveHome(access: SitePagesAccess, draft: HomeDraft, posted: PostedForm) {
  const stored = await storedSite(access);
  // The field's own schema (the one the service checks) read first, so its words land next to the block they are about.
  const shape = homeBlocksSchema.safeParse(homeBlocksOf(draft.blocks));
  if (!shape.success) {
    const errors: Record<string, string> = {};
    for (const issue of shape.error.issues) {
      const [index, field] = issue.path;
      errors[typeof index === "number" && typeof field === "string" ? `b${index}.${field}` : "form"] ??= issue.message;
    }
    return blockDraftReply(draft, errors, 400);
  }
  const current = siteConfigSchema.safeParse(stored.row.config);
  const config = { ...(current.success ? current.data : { name: access.target.name }), home: homeBlocksOf(draft.blocks) };
  const base = Number(posted.values.mtime);
  const changed = await changeEntity(
    access.entityContext,
    access.caller,
    WhitelabelSite,
    stored,
    { config },
    { config: Number.isSafeInteger(base) ? base : 0 },
  );
  if (changed.ok) return redirect(`${homeBase(access.siteId)}?saved=saved`);
  const status = changed.refusal.status;
  return blockDraftReply(draft, errorsOf(changed.refusal), status === 409 || status === 403 ? status : 400);
}

/** A refusal's words by the editor's inputs: config.home.2.url → b2.url; a stale save above the form. */
function errorsOf(refusal: Refusal): Record<string, string> {
  const body = refusal.body;
  if (body.error === "stale") return { form: "Someone changed the site's settings since you opened this page. Reload it to see theirs." };
  const errors: Record<string, string> = {};
  if (body.fields && !Array.isArray(body.fields)) {
    for (const [key, message] of Object.entries(body.fields as Record<string, string>)) {
      const block = /^config\.home\.(\d+)\.(\w+)/.exec(key);
      errors[block ? `b${block[1]}.${block[2]}` : "form"] ??= message;
    }
  }
  // The field's own schema names the config, not the block: its reason alone, above the form.
  if (Object.keys(errors).length === 0) errors.form = body.message.replace(/^Invalid value for 'config': /, "");
  return errors;
}
