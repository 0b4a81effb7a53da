import { expect, test, type Page } from "@playwright/test";
import { send } from "../../bench/http";
import { demoSites } from "../../scripts/demo-data";
import { E2E_PORT } from "../../playwright.config";
import { setUpDemoRace, url, waitForHydration, type DemoRace } from "./hosts";

/**
 * The demo race's 60 racers (bibs 101–160) over three laps, posted as the two readers would: bib 101 + i laps in
 * 100 + i, 200 - i and 100 + i seconds, so the overall order is by bib and lap 2 alone orders them the other way.
 */
async function raceField(demo: DemoRace, bibs: readonly number[], boot: string, seq: { value: number }): Promise<void> {
  const byDevice = new Map<string, { seq: number; chip: string; time: number }[]>();
  for (const bib of bibs) {
    const i = bib - 101;
    const chip = demo.racers.find((r) => r.bib === bib)!.chip;
    const laps = [100 + i, 200 - i, 100 + i];
    let lapStart = 0;
    for (const lap of laps) {
      for (const [name, fraction] of [
        ["Hill reader", 0.5],
        ["Finish reader", 1],
      ] as const) {
        const reads = byDevice.get(name) ?? [];
        reads.push({ seq: seq.value++, chip, time: demo.startTime * 1000 + Math.round((lapStart + fraction * lap) * 1_000_000) });
        byDevice.set(name, reads);
      }
      lapStart += lap;
    }
  }
  for (const [name, reads] of byDevice) {
    const device = demo.devices.find((d) => d.name === name)!;
    const reply = await send(E2E_PORT, "localhost", "POST", `/timing-api/races/${demo.raceId}/reads`, JSON.stringify({ boot, reads }), {
      "Content-Type": "application/json",
      Authorization: `Bearer ${device.token}`,
    });
    if (reply.status !== 200) throw new Error(`reads refused: ${reply.status} ${reply.body}`);
  }
}

/**
 * The demo's own 60 racers (bibs 101–160, each with a chip). Other tests may add racers to the demo race (a
 * registration becomes a racer without a chip); those stay unplaced at the end of the list.
 */
const demoField = (demo: DemoRace) => demo.racers.filter((r) => Boolean(r.chip) && r.bib >= 101 && r.bib <= 160).map((r) => r.bib);

const rows = (page: Page) => page.locator(".results-table tbody tr");
const bibs = (page: Page) => rows(page).evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute("data-bib"))));

test("a results page shows a page at a time: pages, ordering by a lap, search, times behind, a racer's place, print", async ({ page }) => {
  const demo = await setUpDemoRace(true);
  const seq = { value: 1 };
  const boot = `e2e-${crypto.randomUUID()}`;
  // Everyone but bib 101, who finishes later and fastest overall.
  const total = demo.racers.length;
  expect(demoField(demo)).toHaveLength(60);
  await raceField(
    demo,
    demoField(demo).filter((b) => b !== 101),
    boot,
    seq,
  );
  await page.goto(url(demoSites[0].hostname, `/races/${demo.raceId}`));
  await waitForHydration(page);
  await expect(page.locator("[data-live-state]")).toHaveAttribute("data-live-state", "live");
  await expect(rows(page)).toHaveCount(50);
  await expect(page.getByText(`Showing 1–50 of ${total}`)).toBeVisible();
  await expect(rows(page).first()).toHaveAttribute("data-bib", "102");

  // Live updates turned off: bib 101's finish, ahead of everyone, does not move the page.
  await page.getByRole("button", { name: "Turn live updates off" }).click();
  await expect(page.locator("[data-live-state]")).toHaveAttribute("data-live-state", "paused");
  await raceField(demo, [101], boot, seq);
  await page.waitForTimeout(3_000);
  await expect(rows(page).first()).toHaveAttribute("data-bib", "102");
  // Turned on again, the page catches up without a reload: 101 first.
  await page.getByRole("button", { name: "Turn live updates on" }).click();
  await expect(page.locator("[data-live-state]")).toHaveAttribute("data-live-state", "live");
  await expect(rows(page).first()).toHaveAttribute("data-bib", "101");
  await expect(rows(page).first().locator("td").first()).toHaveText("1");
  await expect(rows(page).nth(1).locator("td").first()).toHaveText("2");

  // The next page: ranks 51 to 60, placed on the whole field.
  await page.getByRole("link", { name: "Next →" }).click();
  const secondPage = `Showing 51–${Math.min(100, total)} of ${total}`;
  await expect(page.getByText(secondPage)).toBeVisible();
  await expect(rows(page).first().locator("td").first()).toHaveText("51");
  expect((await bibs(page)).slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => 151 + i));

  // Ordered by lap 2 (its own time): the highest bib rode it fastest; the first page again, each place shown.
  await page.getByRole("link", { name: "Lap 2" }).click();
  await expect(page.getByRole("columnheader", { name: "Lap 2" })).toHaveAttribute("aria-sort", "ascending");
  await expect(rows(page).first()).toHaveAttribute("data-bib", "160");
  await expect(rows(page).first().locator("td").nth(7)).toHaveText("2:21.0 (1)");

  // Times behind: the leader's time, everyone else's gap to it.
  await page.getByRole("link", { name: "Rank" }).click();
  // The next link is drawn with the page's ordering: click it once the page is ordered by rank again.
  await expect(rows(page).first()).toHaveAttribute("data-bib", "101");
  await page.getByRole("link", { name: "Time behind" }).click();
  await expect(page.getByRole("columnheader", { name: "Behind" })).toBeVisible();
  await expect(rows(page).nth(1).locator(".result-time")).toHaveText("+1.0");

  // Search on the server: a bib, with its place in the whole field; a club, with how many were found.
  await page.getByLabel("Find a racer").fill("137");
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first().locator("td").first()).toHaveText("37");
  await page.getByLabel("Find a racer").fill("Ottawa Nordic");
  await expect(page).toHaveURL(/q=Ottawa/);
  await expect(rows(page).first().locator("td").nth(3)).toHaveText("Ottawa Nordic");
  await expect(page.getByText(/Showing 1–\d+ of \d+ found/)).toBeVisible();
  for (const club of await page.locator(".results-table tbody td:nth-child(4)").allTextContents()) expect(club).toBe("Ottawa Nordic");

  // A racer's page leads back to the page of results holding them, their row marked.
  await page.goto(url(demoSites[0].hostname, `/races/${demo.raceId}`));
  const racer = demo.racers.find((r) => r.bib === 155)!;
  await page.goto(url(demoSites[0].hostname, `/races/${demo.raceId}/racers/${racer.id}`));
  await page.getByRole("link", { name: /←/ }).click();
  await expect(page.getByText(secondPage)).toBeVisible();
  await expect(page.locator(`#r-${racer.id}`)).toHaveClass(/just-changed/);

  // Print: every racer of every group, on paper without the page's controls.
  await page.getByRole("link", { name: "Print" }).click();
  await expect(page.locator(".results-table tbody tr")).toHaveCount(total);
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".print-tools")).toBeHidden();
});

test("on a phone the splits fold away: the ordered split shows under each name", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const demo = await setUpDemoRace(true);
  await raceField(demo, demoField(demo), `e2e-${crypto.randomUUID()}`, { value: 1 });
  await page.goto(url(demoSites[0].hostname, `/races/${demo.raceId}`));
  await waitForHydration(page);
  await expect(page.getByRole("columnheader", { name: "Lap 2" })).toBeHidden();
  await page.getByRole("navigation", { name: "Order by" }).getByRole("link", { name: "Lap 2" }).click();
  await expect(rows(page).first()).toHaveAttribute("data-bib", "160");
  await expect(rows(page).first().locator(".latest-split")).toHaveText("Lap 2 2:21.0 (1)");
});
