/**
 * The "Menu and footer" section of /site/{site}/settings (issue 26): the site's menu links and its footer,
 * changed one step at a time without JavaScript (add, move up or down, remove; the footer's text). Each step
 * is saved through the entity service as WhitelabelSite's `config`, over the config the page was drawn from
 * (its time), so a step sent twice (a double click) or over someone else's change never lands twice.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import type { Principal } from "../../core/access/policy";
import { moveItem } from "../../core/sites/site-links";
import type { Db } from "../../schema/d1";
import { WhitelabelSite } from "../../schema/entities/classes";
import { siteConfigSchema, siteLinkSchema, type ParsedSiteConfig, type SiteLink } from "../../schema/wire/site-config";
import { changeEntity, readVisible, type Caller, type EntityContext } from "../../workers/services/entity-service";
import type { FieldErrors } from "../components/form-kit";
import { pageUrl, refuse, type PostedForm } from "../forms/posted-form.server";

/** The intents of this section: `menu-add`, `menu-up`, `menu-down`, `menu-remove` (and the same for `footer-`), `footer-text`. */
export const NAV_INTENT = /^(menu|footer)-(add|up|down|remove)$|^footer-text$/;

const STALE = "The menu or footer changed since you opened this page (perhaps a second click). It is shown below as it is now.";

const callerOf = (principal: Principal): Caller => ({ principal, userId: principal.userId, appId: "" });

/** A link as typed: label, optional French label, address. */
function typedLink(values: Record<string, string | undefined>) {
  const labelFr = (values.labelFr ?? "").trim();
  return { label: (values.label ?? "").trim(), ...(labelFr ? { labelFr } : {}), href: (values.href ?? "").trim() };
}

/** The config after one step, or the errors of what was typed. */
function applyStep(config: ParsedSiteConfig, intent: string, posted: PostedForm): { config: ParsedSiteConfig } | { errors: FieldErrors } {
  if (intent === "footer-text") {
    const text = (posted.values.text ?? "").trim();
    const textFr = (posted.values.textFr ?? "").trim();
    return { config: { ...config, footer: { ...config.footer, text, textFr: textFr || undefined } } };
  }
  const [list, step] = intent.split("-") as ["menu" | "footer", "add" | "up" | "down" | "remove"];
  const links: SiteLink[] = list === "menu" ? config.menu : config.footer.links;
  let next: SiteLink[];
  if (step === "add") {
    const link = siteLinkSchema.safeParse(typedLink(posted.values));
    if (!link.success) {
      const errors: FieldErrors = {};
      for (const issue of link.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
      return { errors };
    }
    next = [...links, link.data];
  } else {
    const at = Number(posted.values.at);
    next = step === "remove" ? links.filter((_, i) => i !== at) : moveItem(links, at, step);
  }
  return { config: list === "menu" ? { ...config, menu: next } : { ...config, footer: { ...config.footer, links: next } } };
}

export async function saveSiteNav(context: AppLoadContext, db: Db, principal: Principal, siteId: string, posted: PostedForm) {
  const ctx: EntityContext = { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db };
  const caller = callerOf(principal);
  const stored = await readVisible(ctx, caller, WhitelabelSite, siteId);
  if (!stored) return refuse(posted, { form: "There is no such site." }, 404);
  const current = siteConfigSchema.safeParse(stored.row.config);
  const config = current.success ? current.data : siteConfigSchema.parse({ name: String(stored.row.hostname) });
  const stepped = applyStep(config, posted.intent, posted);
  if ("errors" in stepped) return refuse(posted, stepped.errors);
  const base = Number(posted.values.mtime);
  const changed = await changeEntity(ctx, caller, WhitelabelSite, stored, { config: stepped.config }, { config: Number.isInteger(base) ? base : 0 });
  if (changed.ok) return redirect(pageUrl(`/site/${siteId}/settings`, "saved") + "#nav-heading");
  const { status, body } = changed.refusal;
  if (body.error === "stale") return refuse(posted, { form: STALE }, 409);
  const message = body.message.replace(/^Invalid value for 'config': /, "");
  return refuse(posted, { form: message }, status === 405 ? 400 : (status as 400 | 403 | 404 | 409));
}
