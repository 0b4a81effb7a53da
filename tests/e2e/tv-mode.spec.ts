import { expect, test } from "@playwright/test";
import { demoSites } from "../../scripts/demo-data";
import { raceDemoRacer as race, setUpDemoRace, url, waitForHydration } from "./hosts";

// A short screen holds few rows, so eight finishers overflow it and the group must scroll.
test.use({ viewport: { width: 1280, height: 420 } });

test("the TV screen shows finishers live and scrolls a group longer than the screen", async ({ page }) => {
  const demo = await setUpDemoRace(true);
  await page.goto(url(demoSites[0].hostname, `/races/${demo.raceId}`));
  await page.getByRole("link", { name: "TV screen" }).click();
  await expect(page).toHaveURL(/\/tv\?format=/);
  await waitForHydration(page);
  await expect(page.locator("[data-live-state]")).toHaveAttribute("data-live-state", "live");
  await expect(page.locator(".tv-empty")).toBeVisible();

  const seq = { value: Date.now() };
  // Racers other tests added to the demo race may have no chip; these eight are read by their chips.
  const bibs = demo.racers
    .filter((r) => r.chip)
    .slice(0, 8)
    .map((r) => r.bib);
  for (const [i, bib] of bibs.entries()) await race(demo, bib, 100 + i, seq);
  // Live, without a reload: every finisher is on the list in finishing order.
  await expect(page.locator(".tv-row")).toHaveCount(8);
  await expect(page.locator(".tv-row").first().locator(".tv-bib")).toHaveText(String(bibs[0]));
  await expect(page.locator(".tv-row").first().locator(".tv-time")).toHaveText("5:00.0");

  // After its still moment at the top, the group scrolls up so the last finishers come into view.
  const screen = page.locator(".tv-screen");
  await expect(screen).toHaveAttribute("data-scrolling", "true", { timeout: 15_000 });
  const list = page.locator(".tv-list");
  await expect.poll(async () => list.evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).m42), { timeout: 15_000 }).toBeLessThan(-40);
  await expect(page.locator(".tv-row").last()).toBeInViewport({ timeout: 20_000 });
});
