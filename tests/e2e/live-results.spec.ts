import { expect, test } from "@playwright/test";
import { demoSites } from "../../scripts/demo-data";
import { raceDemoRacer as race, setUpDemoRace, url, waitForHydration } from "./hosts";

test("live results move when crossings arrive, without a reload @phone", async ({ page }) => {
  const demo = await setUpDemoRace(true);
  await page.goto(url(demoSites[0].hostname, `/races/${demo.raceId}`));
  await waitForHydration(page);
  await expect(page.locator("[data-live-state]")).toHaveAttribute("data-live-state", "live");
  await page.evaluate(() => ((window as unknown as { stillSamePage: boolean }).stillSamePage = true));
  const firstRow = page.locator(".results-table tbody tr").first();
  const seq = { value: Date.now() };

  await race(demo, 105, 100, seq);
  await expect(firstRow).toHaveAttribute("data-bib", "105");
  await expect(firstRow.locator("td").first()).toHaveText("1");
  await expect(firstRow.locator(".result-time")).toHaveText("5:00.0");

  // A faster racer finishes: they take first place and 105 moves to second, with the gap shown.
  await race(demo, 110, 90, seq);
  await expect(firstRow).toHaveAttribute("data-bib", "110");
  const second = page.locator(".results-table tbody tr").nth(1);
  await expect(second).toHaveAttribute("data-bib", "105");
  await expect(second.locator("td").first()).toHaveText("2");
  await expect(second.locator("td").last()).toHaveText("+30.0");
  expect(await page.evaluate(() => (window as unknown as { stillSamePage?: boolean }).stillSamePage)).toBe(true);

  // Search narrows the list to a bib, keeping its place in the race.
  await page.getByLabel("Find a racer").fill("105");
  await expect(page.locator(".results-table tbody tr")).toHaveCount(1);
  await expect(page.locator(".results-table tbody tr").first().locator("td").first()).toHaveText("2");
});
