import { expect, test } from "@playwright/test";
import { url } from "./hosts";
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

test("an organiser sets up a two-stage enduro through the pages; transfers are not timed and the fastest run counts", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { raceId, base, startTimeUs } = await createRaceThroughPages(page, "Enduro");
  const token = await addDevice(page, base, "Impinj (Passive Chip Reader)", "Stage boxes");
  for (const [i, name] of ["S1 start", "S1 finish", "S2 start", "S2 finish"].entries()) await addPoint(page, base, name, "Stage boxes", String(i + 1));

  await page.goto(url(MAIN, base));
  await page.getByLabel("Timing mode").selectOption({ label: "Enduro" });
  await expect(page.getByRole("group", { name: "Segments & Timing Devices" })).toContainText(
    "Transfer stages, between one finish and the next start, are not timed",
  );
  await page.getByLabel("Fastest lap: a segment ridden more than once counts its fastest run").check();
  await page.getByLabel("Enduro columns").selectOption({ label: "Each stage's time" });
  await page.getByRole("radio", { name: /^Public/ }).check();
  await page.getByRole("button", { name: "Save setup" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();

  await addCourse(page, base, "Enduro loop");
  await expect(page.getByText("No timed segments yet.")).toBeVisible();
  await addCoursePoint(page, "S1 start", "Start");
  await addCoursePoint(page, "S1 finish", "Split");
  await addCoursePoint(page, "S2 start", "Start");
  await addCoursePoint(page, "S2 finish", "Lap (finish line)");
  await expect(page.locator(".segment-list li")).toHaveText(["Stage #1: S1 start → S1 finish, at least 0 s", "Stage #2: S2 start → S2 finish, at least 0 s"]);
  await addResultFormat(page, base);
  await addRacers(page, base, "Enduro loop", [
    { bib: 1, first: "Ana", chip: "E1" },
    { bib: 2, first: "Ben", chip: "E2" },
  ]);

  const { spectator, close } = await openSpectator(browser, raceId);
  await expect(spectator.locator(".results-table thead th")).toHaveText(["Rank", "Bib", "Name", "Club", "Stage #1", "Stage #2", "Time", "Diff"]);

  // Ana: stage 1 in 5:00, then 4:40 on a second run (the fastest counts), stage 2 in 4:00: 8:40.
  // Ben: 4:50 and 4:00 = 8:50. Long transfers between the stages are not timed.
  const read = (seq: number, chip: string, channel: number, s: number) => ({ seq, chip, channel, time: startTimeUs + s * SECOND_US });
  await postAsDevice(`/timing-api/races/${raceId}/reads`, token, {
    reads: [
      read(1, "E1", 1, 60),
      read(2, "E1", 2, 360),
      read(3, "E1", 1, 900),
      read(4, "E1", 2, 1180),
      read(5, "E1", 3, 2000),
      read(6, "E1", 4, 2240),
      read(7, "E2", 1, 90),
      read(8, "E2", 2, 380),
      read(9, "E2", 3, 1500),
      read(10, "E2", 4, 1740),
    ],
  });
  const rows = spectator.locator(".results-table tbody tr");
  await expect(rows.nth(0)).toHaveAttribute("data-bib", "1");
  await expect(rows.nth(0).locator(".result-time")).toHaveText("8:40.0");
  await expect(rows.nth(0).locator("td").nth(4)).toHaveText("4:40.0");
  await expect(rows.nth(1).locator(".result-time")).toHaveText("8:50.0");
  await expect(rows.nth(1).locator("td").last()).toHaveText("+10.0");
  await close();
});
