/**
 * The "Look" section of /site/{site}/settings: the site's name, tagline and colours. Saved through the entity
 * service as WhitelabelSite's `config`, so the page and the data API accept and refuse the same looks with
 * the same words (the colour contrast rule is in core/sites/contrast.ts, run by admin-entity-rules.ts).
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import type { Principal } from "../../core/access/policy";
import type { Db } from "../../schema/d1";
import { acceptSiteImage } from "../../workers/media";
import { WhitelabelSite } from "../../schema/entities/classes";
import { siteConfigSchema } from "../../schema/wire/site-config";
import { allowed, changeEntity, readVisible, type Caller, type EntityContext, type Refusal } from "../../workers/services/entity-service";
import type { FieldErrors } from "../components/form-kit";
import { pageUrl, refuse, type PostedForm } from "../forms/posted-form.server";

export const LOOK_INTENT = "look";
export const LOGO_INTENT = "logo";
export const LOOK_COLOURS = ["primary", "accent", "background", "text"] as const;

function entityContext(context: AppLoadContext, db: Db): EntityContext {
  return { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db };
}

const callerOf = (principal: Principal): Caller => ({ principal, userId: principal.userId, appId: "" });

/** The look as the form shows it, and whether this caller may change it (the sites flag of their role). */
export async function siteLookData(context: AppLoadContext, db: Db, principal: Principal, siteId: string) {
  const stored = await readVisible(entityContext(context, db), callerOf(principal), WhitelabelSite, siteId);
  if (!stored) return null;
  const config = siteConfigSchema.safeParse(stored.row.config);
  const look = config.success ? config.data : siteConfigSchema.parse({ name: String(stored.row.hostname) });
  return {
    mayEdit: allowed(entityContext(context, db), callerOf(principal), WhitelabelSite, stored.row, "edit"),
    name: look.name,
    tagline: look.tagline ?? "",
    colours: look.colours,
    font: look.font,
    french: look.french,
    menu: look.menu,
    footer: look.footer,
    logoUrl: look.logoUrl ?? null,
    hostname: String(stored.row.hostname),
    // The time the page read the config: a save over someone else's newer one is refused, never lost.
    mtime: stored.mtimes.config ?? 0,
  };
}

/** Saves the posted look; the page again with "saved", or the form with the service's words by field. */
export async function saveSiteLook(context: AppLoadContext, db: Db, principal: Principal, siteId: string, posted: PostedForm) {
  const ctx = entityContext(context, db);
  const caller = callerOf(principal);
  const stored = await readVisible(ctx, caller, WhitelabelSite, siteId);
  if (!stored) return refuse(posted, { form: "There is no such site." }, 404);
  const current = siteConfigSchema.safeParse(stored.row.config);
  const v = posted.values;
  const config = {
    ...(current.success ? current.data : {}),
    name: v.name ?? "",
    tagline: v.tagline ? v.tagline : undefined,
    colours: Object.fromEntries(LOOK_COLOURS.map((c) => [c, (v[c] ?? "").toLowerCase()])),
    font: v.font ?? "system",
    french: v.french === "on",
  };
  // The field's own schema (the one the service checks) read first, so its words land next to the field they are about.
  const shape = siteConfigSchema.safeParse(config);
  if (!shape.success) {
    const errors: FieldErrors = {};
    for (const issue of shape.error.issues) errors[String(issue.path.at(-1) ?? "form")] ??= issue.message;
    return refuse(posted, errors);
  }
  const base = Number(v.mtime);
  const changed = await changeEntity(ctx, caller, WhitelabelSite, stored, { config }, { config: Number.isInteger(base) ? base : 0 });
  if (changed.ok) return redirect(pageUrl(`/site/${siteId}/settings`, "saved"));
  const { status, body } = changed.refusal;
  return refuse(posted, lookErrors(body), status === 405 ? 400 : status);
}

/**
 * Uploads a new logo (or removes it, `remove=1`): the bytes are checked for what they are, stored in R2 under
 * their hash, and the site's config points at them through the same entity service as the rest of the look.
 */
export async function saveSiteLogo(context: AppLoadContext, db: Db, principal: Principal, siteId: string, posted: PostedForm) {
  const ctx = entityContext(context, db);
  const caller = callerOf(principal);
  const stored = await readVisible(ctx, caller, WhitelabelSite, siteId);
  if (!stored) return refuse(posted, { form: "There is no such site." }, 404);
  // Checked before any byte is stored, so a refused upload leaves nothing in R2.
  if (!allowed(ctx, caller, WhitelabelSite, stored.row, "edit")) return refuse(posted, { logo: "You may not change this site's look" }, 403);
  const current = siteConfigSchema.safeParse(stored.row.config);
  const config: Record<string, unknown> = { ...(current.success ? current.data : { name: String(stored.row.hostname) }) };
  if (posted.values.remove === "1") delete config.logoUrl;
  else {
    const uploaded = await acceptSiteImage(context.env, siteId, posted.files.logo, "logo");
    if (!uploaded.ok) return refuse(posted, { logo: uploaded.message });
    config.logoUrl = uploaded.url;
  }
  const changed = await changeEntity(ctx, caller, WhitelabelSite, stored, { config }, { config: stored.mtimes.config ?? 0 });
  if (changed.ok) return redirect(pageUrl(`/site/${siteId}/settings`, "saved"));
  return refuse(posted, lookErrors(changed.refusal.body), changed.refusal.status === 405 ? 400 : changed.refusal.status);
}

/** The service's refusal by the form's fields: `config.colours.text` → `text`; anything else above the form. */
function lookErrors(body: Refusal["body"]): FieldErrors {
  const errors: FieldErrors = {};
  if (body.fields && !Array.isArray(body.fields)) {
    for (const [path, message] of Object.entries(body.fields as Record<string, string>)) {
      const colour = /^config\.(?:colours\.)?(\w+)$/.exec(path)?.[1];
      errors[colour ?? "form"] ??= message;
    }
  }
  if (Object.keys(errors).length === 0)
    errors.form = body.error === "stale" ? "Someone changed the look since you opened this page. Reload it to see theirs." : readable(body.message);
  return errors;
}

// The service names the field it refused ("Invalid value for 'config': …"); the page's reader needs only the reason.
const readable = (message: string) => message.replace(/^Invalid value for 'config': /, "");
