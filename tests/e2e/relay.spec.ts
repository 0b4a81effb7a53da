import { expect, test } from "@playwright/test";
import { url } from "./hosts";
import {
  addCourse,
  addCoursePoint,
  addDevice,
  addPoint,
  addResultFormat,
  createRaceThroughPages,
  MAIN,
  openSpectator,
  postAsDevice,
  SECOND_US,
} from "./race-pages";

test("an organiser sets up a two-leg relay through the pages; spectators see teams ranked live with each leg's time", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { raceId, base, startTimeUs } = await createRaceThroughPages(page, "Club relay");
  const matToken = await addDevice(page, base, "Impinj (Passive Chip Reader)", "Stadium mat");
  await addPoint(page, base, "Exchange", "Stadium mat", "1");
  await addPoint(page, base, "Finish line", "Stadium mat", "2");

  // A custom "Leg" field says who runs first.
  await page.goto(url(MAIN, `${base}/fields`));
  await page.getByLabel("Display name").fill("Leg");
  await page.getByLabel("Type").selectOption({ label: "Number" });
  await page.getByRole("button", { name: "Add field" }).click();
  await expect(page.getByRole("link", { name: "Edit Leg" })).toBeVisible();

  await page.goto(url(MAIN, base));
  await page.getByLabel("Team relay: each team's racers run legs one after another").check();
  await page.getByLabel("Racers per team").fill("0");
  await page.getByRole("radio", { name: /^Public/ }).check();
  await page.getByRole("button", { name: "Save setup" }).click();
  await expect(page.getByText("Must be at least 1")).toBeVisible();
  await page.getByLabel("Racers per team").fill("2");
  await page.getByLabel("Team field").selectOption({ label: "Team" });
  await page.getByLabel("Leg field").selectOption({ label: "Leg" });
  await page.getByLabel("Handover point").selectOption({ label: "Exchange" });
  await page.getByRole("radio", { name: "The team's time at each handover" }).check();
  await page.getByRole("button", { name: "Save setup" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
  await expect(page.getByLabel("Handover point")).toHaveValue(/.+/);

  await addCourse(page, base, "Stadium loop");
  await addCoursePoint(page, "Exchange", "Split");
  await addCoursePoint(page, "Finish line", "Lap (finish line)");
  await addResultFormat(page, base);
  for (const [bib, first, team, leg] of [
    [11, "Ann", "Nordic", 1],
    [12, "Nia", "Nordic", 2],
    [21, "Alp", "Alpine", 1],
    [22, "Ari", "Alpine", 2],
  ] as const) {
    await page.goto(url(MAIN, `${base}/racers/new`));
    await page.getByLabel("First name").fill(first);
    await page.getByLabel("Last name").fill("Racer");
    await page.getByLabel("Bib").fill(String(bib));
    await page.getByLabel("Chip", { exact: true }).fill(`R${bib}`);
    await page.getByLabel("Team").fill(team);
    await page.getByLabel("Leg", { exact: true }).fill(String(leg));
    await page.getByLabel("Course").selectOption({ label: "Stadium loop" });
    await page.getByRole("button", { name: "Add racer" }).click();
    await page.waitForURL(/done=created/);
  }

  const { spectator, close } = await openSpectator(browser, raceId);
  await expect(spectator.locator(".relay-table thead th")).toHaveText(["Rank", "Team", "Leg 1", "Leg 2", "Time"]);

  // Leg 1s hand over at the exchange (Ann 10:00, Alp 9:50); Ari finishes at 20:30, Nia at 20:40.
  const read = (seq: number, chip: string, channel: number, s: number) => ({ seq, chip, channel, time: startTimeUs + s * SECOND_US });
  await postAsDevice(`/timing-api/races/${raceId}/reads`, matToken, { reads: [read(1, "R11", 1, 600), read(2, "R21", 1, 590)] });
  const teams = spectator.locator(".relay-table tbody tr");
  await expect(teams.nth(0).locator(".result-time")).toHaveText("(1 leg)");
  await postAsDevice(`/timing-api/races/${raceId}/reads`, matToken, {
    reads: [read(3, "R22", 1, 1225), read(4, "R22", 2, 1230), read(5, "R12", 1, 1235), read(6, "R12", 2, 1240)],
  });
  await expect(teams.nth(0)).toHaveAttribute("data-team", "Alpine");
  await expect(teams.nth(0).locator(".result-time")).toHaveText("20:30.0");
  await expect(teams.nth(0).locator("td").nth(1)).toContainText("21 Alp Racer");
  await expect(teams.nth(0).locator("td").nth(1)).toContainText("9:50.0");
  // The team's time at each handover: leg 2 shows the team's finish time.
  await expect(teams.nth(0).locator("td").nth(2)).toContainText("20:30.0");
  await expect(teams.nth(1)).toHaveAttribute("data-team", "Nordic");
  await expect(teams.nth(1).locator("td").first()).toHaveText("2");
  await expect(teams.nth(1).locator(".result-time")).toHaveText("20:40.0");

  // Searching a bib narrows to that racer's team.
  await spectator.getByLabel("Find a racer").fill("12");
  await expect(teams).toHaveCount(1);
  await expect(teams.nth(0)).toHaveAttribute("data-team", "Nordic");
  await close();
});
