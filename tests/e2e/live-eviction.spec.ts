import { expect, test } from "@playwright/test";
import { send } from "../../bench/http";
import { E2E_PORT } from "../../playwright.config";
import { demoSites } from "../../scripts/demo-data";
import { raceDemoRacer, setUpDemoRace, url, waitForHydration } from "./hosts";

// The first wave's bug: a page open while the race room was evicted never saw another crossing.
test("a results page open across a race-room eviction sees the next crossing without a reload", async ({ page }) => {
  const demo = await setUpDemoRace(true);
  await page.goto(url(demoSites[0].hostname, `/races/${demo.raceId}`));
  await waitForHydration(page);
  await expect(page.locator("[data-live-state]")).toHaveAttribute("data-live-state", "live");
  await page.evaluate(() => ((window as unknown as { stillSamePage: boolean }).stillSamePage = true));
  const seq = { value: 1 };
  await raceDemoRacer(demo, 105, 100, seq);
  const firstRow = page.locator(".results-table tbody tr").first();
  await expect(firstRow).toHaveAttribute("data-bib", "105");

  const evicted = await send(E2E_PORT, "localhost", "POST", "/_dev/demo-race", JSON.stringify({ evict: true }), { "Content-Type": "application/json" });
  expect(evicted.status).toBe(200);
  const { before, after } = JSON.parse(evicted.body) as { before: string; after: string };
  // A new instance answered: the room's memory is gone, only its storage is left.
  expect(after).not.toBe(before);

  await raceDemoRacer(demo, 110, 90, seq);
  await expect(firstRow).toHaveAttribute("data-bib", "110");
  await expect(page.locator(".results-table tbody tr").nth(1)).toHaveAttribute("data-bib", "105");
  await expect(page.locator("[data-live-state]")).toHaveAttribute("data-live-state", "live");
  expect(await page.evaluate(() => (window as unknown as { stillSamePage?: boolean }).stillSamePage)).toBe(true);
});
