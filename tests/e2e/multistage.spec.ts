import { expect, test, type Page } from "@playwright/test";
import { url } from "./hosts";
import { createAnotherRace, createRaceThroughPages, MAIN, openSpectator, postAsDevice, SECOND_US, setUpFinishOnlyRace } from "./race-pages";

/** A point-to-point stage with a finish mat, a public format and three racers; returns the mat's credential. */
const setUpStage = (page: Page, base: string) =>
  setUpFinishOnlyRace(page, base, "Stage course", [
    { bib: 1, first: "Ana", chip: "S1" },
    { bib: 2, first: "Ben", chip: "S2" },
    { bib: 3, first: "Cy", chip: "S3" },
  ]);

test("an organiser chains stage 2 to stage 1 through the pages; spectators switch between Stage 2 Only and All Stages", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const one = await createRaceThroughPages(page, "Tour stage 1");
  const oneToken = await setUpStage(page, one.base);
  const finish = (startUs: number, seq: number, chip: string, s: number) => ({ seq, chip, channel: 1, time: startUs + s * SECOND_US });
  // Stage 1: Ana 1:00:00, Ben 58:20; Cy does not finish.
  await postAsDevice(`/timing-api/races/${one.raceId}/reads`, oneToken, {
    reads: [finish(one.startTimeUs, 1, "S1", 3600), finish(one.startTimeUs, 2, "S2", 3500)],
  });

  const two = await createAnotherRace(page, "Tour stage 2", 0);
  const twoToken = await setUpStage(page, two.base);
  await page.goto(url(MAIN, two.base));
  await page.getByLabel("Stage before this one").selectOption(one.raceId);
  await page.getByRole("button", { name: "Save setup" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
  await expect(page.getByText("This race is stage 2.")).toBeVisible();
  await page.getByRole("button", { name: "Bring in earlier stage times" }).click();
  await expect(page.getByText("Stage times brought in for 3 racers.")).toBeVisible();

  // Stage 2: Ana 56:40, Ben 59:10, Cy 50:00.
  await postAsDevice(`/timing-api/races/${two.raceId}/reads`, twoToken, {
    reads: [finish(two.startTimeUs, 1, "S1", 3400), finish(two.startTimeUs, 2, "S2", 3550), finish(two.startTimeUs, 3, "S3", 3000)],
  });

  const { spectator, close } = await openSpectator(browser, two.raceId);
  const rows = spectator.locator(".results-table tbody tr");
  await expect(spectator.getByRole("link", { name: "Stage 2 Only" })).toHaveAttribute("aria-current", "page");
  await expect(rows.nth(0)).toHaveAttribute("data-bib", "3");
  await spectator.getByRole("link", { name: "All Stages" }).click();
  await expect(spectator.getByRole("link", { name: "All Stages" })).toHaveAttribute("aria-current", "page");
  await expect(spectator.locator(".results-table thead th")).toHaveText(["Rank", "Bib", "Name", "Club", "Stage 1", "Stage 2", "Total Time", "Diff"]);
  // Ana 1:56:40 leads Ben 1:57:30 by 50 s; Cy, missing stage 1, is unranked.
  await expect(rows.nth(0)).toHaveAttribute("data-bib", "1");
  await expect(rows.nth(0).locator(".result-time")).toHaveText("1:56:40.0");
  await expect(rows.nth(0).locator("td").nth(4)).toHaveText("1:00:00.0");
  await expect(rows.nth(1).locator("td").last()).toHaveText("+50.0");
  await expect(rows.nth(2)).toHaveAttribute("data-bib", "3");
  await expect(rows.nth(2).locator("td").first()).toHaveText("");
  await close();
});
