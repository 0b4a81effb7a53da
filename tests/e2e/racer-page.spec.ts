import { expect, test } from "@playwright/test";
import { send } from "../../bench/http";
import { demoSites } from "../../scripts/demo-data";
import { E2E_PORT } from "../../playwright.config";
import { raceDemoRacer, setUpDemoRace, url, waitForHydration, type DemoRace } from "./hosts";

/** One pass of a racer at a demo reader, `seconds` after the start, as that reader posts it. */
async function pass(demo: DemoRace, reader: "Hill reader" | "Finish reader", bib: number, seconds: number, seq: { value: number; boot: string }) {
  const chip = demo.racers.find((r) => r.bib === bib)!.chip;
  const device = demo.devices.find((d) => d.name === reader)!;
  const reads = [{ seq: seq.value++, chip, time: demo.startTime * 1000 + seconds * 1_000_000 }];
  const reply = await send(E2E_PORT, "localhost", "POST", `/timing-api/races/${demo.raceId}/reads`, JSON.stringify({ boot: seq.boot, reads }), {
    "Content-Type": "application/json",
    Authorization: `Bearer ${device.token}`,
  });
  expect(reply.status).toBe(200);
}

test("a racer's page from the results: splits, place and chart, and a new crossing appears without a reload", async ({ page }) => {
  const demo = await setUpDemoRace(true);
  const seq = { value: Date.now(), boot: `e2e-${crypto.randomUUID()}` };
  // 105 runs all three laps of 100 s; 110 is faster up the hill and through lap 1, then still on lap 2.
  await raceDemoRacer(demo, 105, 100, seq);
  await pass(demo, "Hill reader", 110, 45, seq);
  await pass(demo, "Finish reader", 110, 95, seq);

  await page.goto(url(demoSites[0].hostname, `/races/${demo.raceId}`));
  await page.locator('.results-table tr[data-bib="110"] td a').click();
  await expect(page).toHaveURL(new RegExp(`/races/${demo.raceId}/racers/[^/?]+\\?format=`));
  await waitForHydration(page);
  await expect(page.locator("[data-live-state]")).toHaveAttribute("data-live-state", "live");
  await page.evaluate(() => ((window as unknown as { stillSamePage: boolean }).stillSamePage = true));

  const rows = page.locator(".racer-splits tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).locator("th")).toHaveText("Hill 1");
  await expect(rows.nth(0).locator("td").nth(0)).toHaveText("45.0");
  await expect(rows.nth(1).locator("th")).toHaveText("Lap 1 (3.3 km)");
  await expect(rows.nth(1).locator("td").nth(0)).toHaveText("1:35.0");
  await expect(rows.nth(1).getByText("1 of 2")).toBeVisible();
  await expect(rows.nth(1).getByText("Leader")).toBeVisible();
  await expect(page.locator(".position-chart svg title")).toHaveText(/^Position of .+ at each point: Hill 1: 1, Lap 1: 1$/);
  await expect(page.locator('[data-fact="Status"]')).toHaveText("On course");

  // The next pass up the hill: slower than 105 was there, so second at that point, 3.0 s behind.
  await pass(demo, "Hill reader", 110, 153, seq);
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2).locator("th")).toHaveText("Hill 2");
  await expect(rows.nth(2).locator("td").nth(0)).toHaveText("2:33.0");
  await expect(rows.nth(2).getByText("2 of 2")).toBeVisible();
  await expect(rows.nth(2).getByText("+3.0")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stillSamePage?: boolean }).stillSamePage)).toBe(true);
});
