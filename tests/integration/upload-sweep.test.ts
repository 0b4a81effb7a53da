/**
 * The hourly sweep of uploaded site images nothing refers to (decision 0062): files referred to by the site's
 * logo, home and page blocks, an event banner or a newsletter (a sent one included) are kept, as is anything
 * younger than the grace period; an old orphan is deleted, once, and another site's files are untouched. A
 * newsletter of any club that pastes a site's image address keeps that file.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { UPLOAD_GRACE_MS } from "../../core/sites/upload-sweep";
import { emailNewsletters, eventPages, sitePages, sites } from "../../schema/d1";
import { runCron } from "../../workers/cron";
import { storeSiteImage } from "../../workers/media";
import { sweepSiteUploads } from "../../workers/services/upload-sweep";
import { db, worker } from "./auth-fixtures";
import { createSiteWithRace, hostRequest } from "./fixtures";

const HOURLY = "17 * * * *";
const HOUR = 60 * 60 * 1000;
const png = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, n, n >> 8, 72, 82]);
const upload = (siteId: string, n: number) => storeSiteImage(env, siteId, png(n), { contentType: "image/png", extension: "png" });
const keys = async (siteId: string) => (await env.UPLOADS.list({ prefix: `media/sites/${siteId}/` })).objects.map((o) => `/${o.key}`).sort();

describe("the sweep of unreferenced uploads", () => {
  it("deletes an old orphan and keeps what the logo, blocks, banners and newsletters (sent ones too) show, and fresh files", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const { site, club } = await createSiteWithRace(db(), { hostname: `sweep-${tag}.localhost`, siteName: "Sweep", raceName: "Sweep race" });
    const other = await createSiteWithRace(db(), { hostname: `sweep-other-${tag}.localhost`, siteName: "Other", raceName: "Other race" });
    const [logo, home, page, pageFr, banner, mailed, orphan] = (await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => upload(site.id, n)))) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    // The same picture as this site's logo, on another site where nothing shows it.
    const othersCopy = await upload(other.site.id, 1);

    await db()
      .update(sites)
      .set({ config: { name: "Sweep", logoUrl: logo, home: [{ type: "image", image_url: home, alt: "The start" }] } })
      .where(eq(sites.id, site.id));
    await db()
      .insert(sitePages)
      .values({
        id: crypto.randomUUID(),
        siteId: site.id,
        title: "Gallery",
        path: "/gallery",
        body: JSON.stringify([{ type: "image", image_url: page, alt: "" }]),
        bodyFr: JSON.stringify([{ type: "image", image_url: pageFr, alt: "" }]),
      });
    await db().insert(eventPages).values({ id: crypto.randomUUID(), clubId: club.id, siteId: site.id, name: "Spring run", bannerUrl: banner });
    // Sent yesterday, and kept by the club, not the site: its mails show the image by its whole address.
    await db()
      .insert(emailNewsletters)
      .values({
        id: crypto.randomUUID(),
        clubId: club.id,
        siteId: null,
        subject: "Thanks for racing",
        elements: [{ type: "image", image_url: `https://sweep-${tag}.example.org${mailed}` }],
        sentTime: Date.now() - 24 * HOUR,
        dispatchedTime: Date.now() - 24 * HOUR,
      });
    const everything = await keys(site.id);
    expect(everything).toHaveLength(7);

    // Within the grace period nothing goes, orphan included (a form may still be open with it).
    await runCron(HOURLY, env, Date.now() + HOUR);
    expect(await keys(site.id)).toEqual(everything);

    // A day later the orphan goes, and only it; references count per site, so the other site's copy goes too.
    const later = Date.now() + UPLOAD_GRACE_MS + HOUR;
    await runCron(HOURLY, env, later);
    expect(await keys(site.id)).toEqual(everything.filter((k) => k !== orphan));
    expect(await keys(other.site.id)).not.toContain(othersCopy);
    expect((await worker.fetch(hostRequest(`sweep-${tag}.localhost`, orphan))).status).toBe(404);
    expect((await worker.fetch(hostRequest(`sweep-${tag}.localhost`, mailed))).status).toBe(200);

    // Run again (a retried cron): nothing more is deleted.
    expect(await sweepSiteUploads(env, db(), site.id, later)).toEqual({ kept: 6, deleted: 0 });

    // A file uploaded now for a form not yet saved is kept through the next sweeps, paging the listing two at a time.
    const fresh = await upload(site.id, 8);
    expect(await sweepSiteUploads(env, db(), site.id, Date.now() + HOUR, { pageSize: 2 })).toEqual({ kept: 7, deleted: 0 });
    expect(await sweepSiteUploads(env, db(), site.id, Date.now() + UPLOAD_GRACE_MS + HOUR, { pageSize: 2 })).toEqual({ kept: 6, deleted: 1 });
    expect(await keys(site.id)).not.toContain(fresh);
  });

  it("keeps a file that a newsletter of another club, on another site, shows by a pasted address, draft or sent", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const { site } = await createSiteWithRace(db(), { hostname: `sweep-pasted-${tag}.localhost`, siteName: "Pasted", raceName: "Pasted race" });
    const stranger = await createSiteWithRace(db(), { hostname: `sweep-stranger-${tag}.localhost`, siteName: "Stranger", raceName: "Stranger race" });
    const [pasted, drafted, orphan] = (await Promise.all([21, 22, 23].map((n) => upload(site.id, n)))) as [string, string, string];
    const letter = (path: string, sentTime: number | null) => ({
      id: crypto.randomUUID(),
      clubId: stranger.club.id,
      siteId: stranger.site.id,
      subject: "Borrowed picture",
      elements: [{ type: "image" as const, image_url: `https://sweep-pasted-${tag}.localhost${path}` }],
      sentTime,
    });
    await db()
      .insert(emailNewsletters)
      .values([letter(pasted, Date.now() - HOUR), letter(drafted, null)]);
    expect(await sweepSiteUploads(env, db(), site.id, Date.now() + UPLOAD_GRACE_MS + HOUR)).toEqual({ kept: 2, deleted: 1 });
    expect(await keys(site.id)).toEqual([pasted, drafted].sort());
    expect(await keys(site.id)).not.toContain(orphan);
  });

  it("keeps a file stored again within the grace period: the same bytes uploaded anew renew it", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const { site } = await createSiteWithRace(db(), { hostname: `sweep-again-${tag}.localhost`, siteName: "Again", raceName: "Again race" });
    await upload(site.id, 9);
    const before = (await env.UPLOADS.list({ prefix: `media/sites/${site.id}/` })).objects[0]!.uploaded.getTime();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await upload(site.id, 9);
    const after = (await env.UPLOADS.list({ prefix: `media/sites/${site.id}/` })).objects[0]!.uploaded.getTime();
    expect(after).toBeGreaterThan(before);
    expect(await sweepSiteUploads(env, db(), site.id, after + UPLOAD_GRACE_MS - 1)).toEqual({ kept: 1, deleted: 0 });
  });
});
