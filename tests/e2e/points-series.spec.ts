import { expect, test } from "@playwright/test";
import { send } from "../../bench/http";
import { E2E_PORT } from "../../playwright.config";
import { demoSeries, demoSites } from "../../scripts/demo-data";
import { raceDemoRacer, setUpDemoRace, url } from "./hosts";

const SITE = demoSites[0].hostname;

/**
 * A visitor on the demo club's site opens the Demo Cup and reads each racer's points race by race; a racer
 * who finishes the classic is in the standings at the next visit (issue 27, decision 0048).
 */
test("a visitor opens the demo series' standings and sees race-by-race points @phone", async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  const sprint = await send(E2E_PORT, "localhost", "POST", "/_dev/demo-sprint", "{}", { "Content-Type": "application/json" });
  expect(sprint.status).toBe(200);
  const demo = await setUpDemoRace(true);
  // Other specs add racers without a chip (from registrations) to the demo race: race one who has a chip.
  await raceDemoRacer(demo, demo.racers.find((r) => r.chip)!.bib, 600, { value: 1 });

  await page.goto(url(SITE, "/series"));
  // The site's menu links the Cup too (the demo seed's menu): follow the series list's own link.
  await page
    .getByRole("main")
    .getByRole("link", { name: new RegExp(`^${demoSeries.name}`) })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(`^${demoSeries.name}`) })).toBeVisible();
  const table = page.getByRole("table").first();
  const phone = testInfo.project.name === "phone";
  if (!phone) {
    await expect(table.getByRole("columnheader", { name: "Demo Sprint (heats)" })).toBeVisible();
    await expect(table.getByRole("columnheader", { name: /Demo Classic 10 km/ })).toBeVisible();
    // Points line up under their race: every race column and the total, header and cells, set right; names left.
    const aligned = await table.evaluate((t) => {
      const alignOf = (cell: Element) => getComputedStyle(cell).textAlign;
      const headers = [...t.querySelectorAll("thead th")].map(alignOf);
      const cells = [...t.querySelectorAll("tbody tr:first-child > *")].map(alignOf);
      return { headers, cells };
    });
    const right = (aligns: string[]) => aligns.slice(3).every((a) => a === "right");
    expect(right(aligned.headers), JSON.stringify(aligned.headers)).toBe(true);
    expect(right(aligned.cells), JSON.stringify(aligned.cells)).toBe(true);
    expect(["left", "start"]).toContain(aligned.cells[1]);
  }
  // The qualifier's winner: 100 points in the sprint, nothing in the classic.
  const first = table.getByRole("row").nth(1);
  await expect(first.getByRole("cell").first()).toHaveText("1");
  await expect(first.getByRole("cell").last()).toHaveText(/^1\d\d$/);

  // The classic's finisher (1st, the race scaled ×1.5) leads with 150 points once the results are published.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("table").first().getByRole("row").nth(1).getByRole("cell").last()).toHaveText("150", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  if (phone) {
    // On a phone the race columns fold into a line under the name.
    await expect(page.locator(".series-race-points").first()).toBeVisible();
    await expect(page.locator(".series-race-points").first()).toContainText(
      /Demo Sprint \(heats\): (–|\d+).*Demo Classic 10 km ×1\.5: 150|Demo Classic 10 km ×1\.5: 150.*Demo Sprint \(heats\): (–|\d+)/,
    );
    await expect(table.getByRole("columnheader", { name: "Demo Sprint (heats)" })).toBeHidden();
  }
});
