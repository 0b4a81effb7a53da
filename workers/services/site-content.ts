/**
 * A site's public content as the edge cache sees it (issue 26, decision 0053): one `version` counter per
 * site, bumped in the same batch as any change to its config, its pages, its event pages or its ranking schemes, so the cached
 * pages are named by it and a change shows on the next request without purging any key. And the site's
 * published pages, as `/{path}` serves them.
 */
import { and, eq, sql } from "drizzle-orm";
import { sitePages, sites, type Db } from "../../schema/d1";
import { homeBlocksSchema, type HomeBlock } from "../../schema/wire/page-blocks";

/** The classes whose rows a site's public pages show, and the site each row belongs to. */
const SITE_OF: Readonly<Record<string, (id: string, row: Readonly<Record<string, unknown>>) => unknown>> = {
  WhitelabelSite: (id) => id,
  Page: (_id, row) => row.site,
  EventPage: (_id, row) => row.site,
  // The public ranking lists (decision 0064): a scheme made public, private or reconfigured shows at once.
  RankingScheme: (_id, row) => row.site,
};

/** The statement that marks the site's content as changed, for the write's own batch; none for other classes. */
export function siteVersionBump(db: Db, classname: string, id: string, row: Readonly<Record<string, unknown>>) {
  const site = SITE_OF[classname]?.(id, row);
  if (typeof site !== "string" || site === "") return [];
  // A bump that is not followed by its write (a retried optimistic update) only costs one cache miss.
  return [
    db
      .update(sites)
      .set({ version: sql`${sites.version} + 1` })
      .where(eq(sites.id, site)),
  ];
}

/** The site's content version, read fresh on every cacheable request (one primary-key read). */
export async function siteVersion(db: Db, siteId: string): Promise<number | null> {
  const [row] = await db.select({ version: sites.version }).from(sites).where(eq(sites.id, siteId)).limit(1);
  return row ? row.version : null;
}

export interface PublicPage {
  id: string;
  title: string;
  body: string;
  titleFr: string | null;
  bodyFr: string | null;
}

/** The site's published page at `path`, or null (a draft is as absent as no page at all). */
export async function publishedPage(db: Db, siteId: string, path: string): Promise<PublicPage | null> {
  const [row] = await db
    .select({ id: sitePages.id, title: sitePages.title, body: sitePages.body, titleFr: sitePages.titleFr, bodyFr: sitePages.bodyFr })
    .from(sitePages)
    .where(and(eq(sitePages.siteId, siteId), eq(sitePages.path, path), eq(sitePages.isPublished, true)))
    .limit(1);
  return row ?? null;
}

/** Every page of the site, drafts too, for its administrators' list. */
export async function sitePageList(db: Db, siteId: string) {
  return db
    .select({ id: sitePages.id, title: sitePages.title, path: sitePages.path, isPublished: sitePages.isPublished })
    .from(sitePages)
    .where(eq(sitePages.siteId, siteId))
    .orderBy(sitePages.path);
}

/** The home page's blocks as saved in the site's config, read fresh (the tenant's cached theme may be older); none when unset or unreadable. */
export async function siteHomeBlocks(db: Db, siteId: string): Promise<HomeBlock[]> {
  const [row] = await db.select({ config: sites.config }).from(sites).where(eq(sites.id, siteId)).limit(1);
  const home = (row?.config as { home?: unknown } | undefined)?.home;
  const parsed = homeBlocksSchema.safeParse(home ?? []);
  return parsed.success ? parsed.data : [];
}
