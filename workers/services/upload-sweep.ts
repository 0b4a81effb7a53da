/**
 * Sweeps uploaded site images nothing refers to from R2 (decision 0062), hourly from the cron. Each site's files
 * are listed page by page first and its references read after, so a file saved into a form while the listing
 * ran is seen as referenced; a file younger than the grace period is never swept (core/sites/upload-sweep.ts).
 * Running it twice deletes nothing more: a deleted key is simply not listed again.
 */
import { eq, inArray, or, sql } from "drizzle-orm";
import { referencedUploads, unreferencedUploads, type StoredUpload } from "../../core/sites/upload-sweep";
import { clubs, emailNewsletters, eventPages, sitePages, sites, type Db } from "../../schema/d1";

const MEDIA_PREFIX = "media/sites/";
/** R2 lists at most 1000 keys a page, and deletes at most 1000 keys a call. */
const LIST_LIMIT = 1000;
const SITE_ID = /^[0-9a-f-]{36}$/;

export interface SweepOptions {
  /** Keys per listing page (tests use a small one to page). */
  pageSize?: number;
  graceMs?: number;
}

/** Every text of the site's own rows, its clubs' rows and any newsletter that may show one of its uploads. */
async function referencingTexts(db: Db, siteId: string): Promise<(string | null)[]> {
  const [site] = await db.select({ config: sites.config }).from(sites).where(eq(sites.id, siteId));
  const siteClubs = await db.select({ id: clubs.id, logo: clubs.logo }).from(clubs).where(eq(clubs.siteId, siteId));
  const clubIds = siteClubs.map((c) => c.id);
  // An event page of the site, or of one of its clubs whose site was set later.
  const ownedBy = clubIds.length > 0 ? or(eq(eventPages.siteId, siteId), inArray(eventPages.clubId, clubIds)) : eq(eventPages.siteId, siteId);
  const pages = await db.select({ body: sitePages.body, bodyFr: sitePages.bodyFr }).from(sitePages).where(eq(sitePages.siteId, siteId));
  const events = await db.select({ banner: eventPages.bannerUrl, description: eventPages.description }).from(eventPages).where(ownedBy);
  // Any newsletter of any club that mentions the site's folder (a pasted address too), sent ones included: their
  // mails show the images for as long as someone keeps them. Reading across tenants here only keeps files.
  const folder = `${MEDIA_PREFIX}${siteId}/`;
  const letters = await db
    .select({ elements: emailNewsletters.elements })
    .from(emailNewsletters)
    // instr, not LIKE: D1 refuses a LIKE pattern over 50 bytes, and a site's folder is 50 already.
    .where(or(sql`instr(${emailNewsletters.elements}, ${folder}) > 0`, sql`instr(${emailNewsletters.elements}, ${folder.replaceAll("/", "\\/")}) > 0`));
  return [
    site ? JSON.stringify(site.config) : null,
    ...siteClubs.map((c) => c.logo),
    ...pages.flatMap((p) => [p.body, p.bodyFr]),
    ...events.flatMap((e) => [e.banner, e.description]),
    ...letters.map((l) => JSON.stringify(l.elements)),
  ];
}

/** Sweeps one site's unreferenced uploads older than the grace period; how many it kept and deleted. */
export async function sweepSiteUploads(env: Env, db: Db, siteId: string, now: number, options: SweepOptions = {}): Promise<{ kept: number; deleted: number }> {
  const stored: StoredUpload[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.UPLOADS.list({ prefix: `${MEDIA_PREFIX}${siteId}/`, limit: options.pageSize ?? LIST_LIMIT, cursor });
    stored.push(...page.objects.map((o) => ({ key: o.key, uploaded: o.uploaded.getTime() })));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  if (stored.length === 0) return { kept: 0, deleted: 0 };
  const referenced = referencedUploads(await referencingTexts(db, siteId), siteId);
  const doomed = unreferencedUploads(stored, referenced, siteId, now, options.graceMs);
  for (let i = 0; i < doomed.length; i += LIST_LIMIT) await env.UPLOADS.delete(doomed.slice(i, i + LIST_LIMIT));
  return { kept: stored.length - doomed.length, deleted: doomed.length };
}

/** Every site with files in R2 (one listing of the sites' folders), each swept; one site failing does not stop the others. */
export async function sweepUnreferencedUploads(env: Env, db: Db, now: number, options: SweepOptions = {}): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await env.UPLOADS.list({ prefix: MEDIA_PREFIX, delimiter: "/", limit: options.pageSize ?? LIST_LIMIT, cursor });
    for (const prefix of page.delimitedPrefixes) {
      const siteId = prefix.slice(MEDIA_PREFIX.length, -1);
      if (!SITE_ID.test(siteId)) continue;
      try {
        deleted += (await sweepSiteUploads(env, db, siteId, now, options)).deleted;
      } catch (error) {
        console.error(`Sweeping the uploads of site ${siteId} failed`, error);
      }
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}
