import { expect, test } from "@playwright/test";
import { url, waitForHydration } from "./hosts";
import {
  addCourse,
  addCoursePoint,
  addDevice,
  addPoint,
  addRacers,
  addResultFormat,
  createRaceThroughPages,
  MAIN,
  openSpectator,
  postAsDevice,
  SECOND_US,
} from "./race-pages";

test("an organiser sets up a two-run slalom through the pages; the jury's run-2 DSQ on the keypad reorders the live results", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { raceId, base, startTimeUs } = await createRaceThroughPages(page, "Giant slalom");
  const gatesToken = await addDevice(page, base, "Impinj (Passive Chip Reader)", "Gates");
  await addPoint(page, base, "Start wand", "Gates", "1");
  await addPoint(page, base, "Finish", "Gates", "2");

  await page.goto(url(MAIN, base));
  await page.getByLabel("Timing mode").selectOption({ label: "Point to point" });
  await page.getByLabel("Start option").selectOption({ label: "Chip start" });
  await page.getByLabel("Racers run the course several times (fixed run count)").check();
  await page.getByLabel("Run count", { exact: true }).fill("11");
  await page.getByLabel("Result from the runs").selectOption({ label: "Sum of all runs" });
  await page.getByRole("radio", { name: /^Public/ }).check();
  await page.getByRole("button", { name: "Save setup" }).click();
  await expect(page.getByText("At most 10 runs")).toBeVisible();
  await page.getByLabel("Run count", { exact: true }).fill("2");
  await page.getByRole("button", { name: "Save setup" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();

  await addCourse(page, base, "GS");
  await addCoursePoint(page, "Start wand", "Start");
  await addCoursePoint(page, "Finish", "Lap (finish line)");
  await addResultFormat(page, base);
  await addRacers(page, base, "GS", [
    { bib: 1, first: "Ana", chip: "GS1" },
    { bib: 2, first: "Ben", chip: "GS2" },
  ]);

  const { spectator, close } = await openSpectator(browser, raceId);
  await expect(spectator.locator(".results-table thead th")).toHaveText(["Rank", "Bib", "Name", "Club", "Run 1", "Run 2", "Total", "Diff"]);

  // Two runs each: Ana 60.5 + 55.3, Ben 58.0 + 55.0, so Ben leads by 2.8 s.
  const read = (seq: number, chip: string, channel: number, s: number) => ({ seq, chip, channel, time: startTimeUs + Math.round(s * SECOND_US) });
  await postAsDevice(`/timing-api/races/${raceId}/reads`, gatesToken, {
    reads: [
      read(1, "GS1", 1, 0),
      read(2, "GS1", 2, 60.5),
      read(3, "GS2", 1, 30),
      read(4, "GS2", 2, 88),
      read(5, "GS1", 1, 900),
      read(6, "GS1", 2, 955.3),
      read(7, "GS2", 1, 930),
      read(8, "GS2", 2, 985),
    ],
  });
  const rows = spectator.locator(".results-table tbody tr");
  await expect(rows.nth(0)).toHaveAttribute("data-bib", "2");
  await expect(rows.nth(0).locator(".result-time")).toHaveText("1:53.0");
  await expect(rows.nth(1).locator("td").nth(4)).toHaveText("1:00.5");
  await expect(rows.nth(1).locator("td").nth(5)).toHaveText("55.3");
  await expect(rows.nth(1).locator("td").last()).toHaveText("+2.8");

  // The jury disqualifies Ben in run 2 from the keypad: Ana wins, Ben shows DSQ in run 2 and overall.
  await page.goto(url(MAIN, `${base}/keypad`));
  await waitForHydration(page);
  const status = page.getByRole("group", { name: "Set a status" });
  await status.getByLabel("Run").selectOption({ label: "Run 2" });
  await status.getByLabel("Bib").fill("2");
  await status.getByRole("button", { name: "DSQ" }).click();
  await expect(page.getByText("All entries are sent.")).toBeVisible();
  await expect(rows.nth(0)).toHaveAttribute("data-bib", "1");
  await expect(rows.nth(0).locator(".result-time")).toHaveText("1:55.8");
  await expect(rows.nth(1)).toHaveAttribute("data-bib", "2");
  await expect(rows.nth(1).locator("td").nth(5)).toHaveText("DSQ");
  await expect(rows.nth(1).locator(".result-time")).toHaveText("DSQ");
  await close();
});
