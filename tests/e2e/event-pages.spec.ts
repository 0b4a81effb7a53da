import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { demoEvents, demoRaces, demoRegistrations, demoSites } from "../../scripts/demo-data";
import { url, waitForHydration } from "./hosts";

const now = Date.now();
const [upcoming, past] = demoEvents(now);
const demoRace = demoRaces(now)[0]!;
const demoForm = demoRegistrations(now)[0]!;
const site = demoSites[0].hostname;

test.describe("a club site's event pages", () => {
  test("a visitor finds the event, opens its race and form, and takes its calendar @phone", async ({ page }) => {
    await page.goto(url(site));
    await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Events" }).click();
    await expect(page).toHaveURL(url(site, "/events"));
    await expect(page).toHaveTitle(`Events · ${demoSites[0].config.name}`);
    const upcomingList = page.getByRole("region", { name: "Upcoming events" });
    const pastList = page.getByRole("region", { name: "Past events" });
    await expect(upcomingList.getByRole("link", { name: upcoming!.title })).toBeVisible();
    await expect(pastList.getByRole("link", { name: past!.title })).toBeVisible();
    await expect(upcomingList.getByText(past!.title)).toHaveCount(0);
    await waitForHydration(page);

    await upcomingList.getByRole("link", { name: upcoming!.title }).click();
    await expect(page).toHaveURL(url(site, `/events/${upcoming!.pageUrl}`));
    await expect(page.getByRole("heading", { level: 1, name: upcoming!.title })).toBeVisible();
    // A shared link shows a card: the tags are in the page's head.
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", upcoming!.title);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}") as Record<string, unknown>;
    // The seed ran a moment before this test: its dates, not this run's, are the page's.
    expect(jsonLd).toMatchObject({ "@type": "SportsEvent", name: upcoming!.title, startDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    // No page sticks out sideways on a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    const calendarLink = page.getByRole("link", { name: "Add to your calendar (.ics)" });
    const [download] = await Promise.all([page.waitForEvent("download"), calendarLink.click()]);
    expect(download.suggestedFilename()).toBe(`${upcoming!.pageUrl}.ics`);
    const ics = readFileSync((await download.path())!, "utf8");
    expect(ics.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(ics.replace(/\r\n /g, "")).toContain(`SUMMARY:${upcoming!.title}\r\n`);
    expect(ics).toContain(`UID:${upcoming!.id}@events.startline`);

    await page.getByRole("link", { name: demoForm.name }).click();
    await expect(page).toHaveURL(url(site, `/register/${demoForm.id}`));
    await page.goBack();
    await page.getByRole("link", { name: `Results of ${demoRace.name}` }).click();
    await expect(page).toHaveURL(url(site, `/races/${demoRace.id}`));
    await expect(page.getByRole("heading", { level: 1, name: demoRace.name })).toBeVisible();
  });

  test("an unknown event is a 404 in the site's layout, and the other club's site has none of these events", async ({ page }) => {
    const missing = await page.goto(url(site, "/events/no-such-event"));
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Event not found" })).toBeVisible();
    await expect(page.locator(".site-header")).toContainText(demoSites[0].config.name);
    const other = await page.goto(url(demoSites[1].hostname, `/events/${upcoming!.pageUrl}`));
    expect(other?.status()).toBe(404);
    await page.goto(url(demoSites[1].hostname, "/events"));
    await expect(page.getByText(upcoming!.title)).toHaveCount(0);
  });
});
