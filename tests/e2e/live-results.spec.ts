import { expect, test } from "@playwright/test";
import { send } from "../../bench/http";
import { E2E_PORT } from "../../playwright.config";
import { demoSites } from "../../scripts/demo-data";
import { setUpDemoRace, url, waitForHydration, type DemoRace } from "./hosts";

const SECOND_US = 1_000_000;

/** One racer's three laps (hill split, then the stadium), each pass read twice, as chip readers do. */
async function race(demo: DemoRace, bib: number, lapSeconds: number, seq: { value: number }) {
  const chip = demo.racers.find((r) => r.bib === bib)!.chip;
  const byDevice = new Map<string, { seq: number; chip: string; time: number }[]>();
  for (let lap = 0; lap < 3; lap++) {
    for (const [name, fraction] of [["Hill reader", 0.5], ["Finish reader", 1]] as const) {
      const at = demo.startTime * 1000 + Math.round((lap + fraction) * lapSeconds * SECOND_US);
      const reads = byDevice.get(name) ?? [];
      reads.push({ seq: seq.value++, chip, time: at }, { seq: seq.value++, chip, time: at + 400_000 });
      byDevice.set(name, reads);
    }
  }
  for (const [name, reads] of byDevice) {
    const device = demo.devices.find((d) => d.name === name)!;
    const reply = await send(E2E_PORT, "localhost", "POST", `/timing-api/races/${demo.raceId}/reads`, JSON.stringify({ reads }), { "Content-Type": "application/json", Authorization: `Bearer ${device.token}` });
    expect(reply.status).toBe(200);
  }
}

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
