import { expect, test } from "@playwright/test";
import { demoSites } from "../../scripts/demo-data";
import { raceDemoRacer as race, setUpDemoRace, url, waitForHydration } from "./hosts";

test("live results move when crossings arrive, without a reload @phone", async ({ page }) => {
  const demo = await setUpDemoRace(true);
  // What the page's race socket says and hears (text frames; large ones come deflated and are not read here).
  const sent: string[] = [];
  const heard: string[] = [];
  page.on("websocket", (ws) => {
    ws.on("framesent", (frame) => void (typeof frame.payload === "string" && sent.push(frame.payload)));
    ws.on("framereceived", (frame) => void (typeof frame.payload === "string" && heard.push(frame.payload)));
  });
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
  // The page told its shard which page it shows, and was sent the rows for it (decision 0085).
  expect(sent.some((text) => text.startsWith('{"type":"window"'))).toBe(true);
  expect(heard.some((text) => text.startsWith('{"type":"window-rows"') && text.includes('"bib":110'))).toBe(true);

  // Search narrows the list to a bib, keeping its place in the race.
  await page.getByLabel("Find a racer").fill("105");
  await expect(page.locator(".results-table tbody tr")).toHaveCount(1);
  await expect(page.locator(".results-table tbody tr").first().locator("td").first()).toHaveText("2");
  // A search has no filter: the page says it takes every row again.
  await expect.poll(() => sent.some((text) => text.startsWith('{"type":"window-all"'))).toBe(true);
});
