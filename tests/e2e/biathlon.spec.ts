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

test("an organiser sets up a biathlon sprint through the pages; reads, penalty loops and range entries rank it live", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { raceId, base, startTimeUs } = await createRaceThroughPages(page, "Biathlon sprint");

  const stadiumToken = await addDevice(page, base, "Impinj (Passive Chip Reader)", "Stadium reader");
  const loopToken = await addDevice(page, base, "Impinj (Passive Chip Reader)", "Loop recorder");
  const keypadToken = await addDevice(page, base, "Web Keypad", "Range keypad");
  await addPoint(page, base, "Stadium", "Stadium reader", "1");
  await addPoint(page, base, "Range in", "Stadium reader", "2");
  await addPoint(page, base, "Range out", "Stadium reader", "3");
  await addPoint(page, base, "Penalty loop", "Loop recorder", "");

  // The biathlon panel: one lap is refused in the spec's words, three laps are saved.
  await page.goto(url(MAIN, base));
  await page.getByLabel("Timing mode").selectOption({ label: "Standard lap" });
  await page.getByLabel("Lap count", { exact: true }).fill("1");
  await page.getByRole("radio", { name: /Penalty laps/ }).check();
  await page.getByLabel("Penalty-lap recorder", { exact: true }).selectOption({ label: "Loop recorder" });
  await page.getByLabel("Range-data device", { exact: true }).selectOption({ label: "Range keypad" });
  await page.getByRole("radio", { name: /^Public/ }).check();
  await page.getByRole("button", { name: "Save setup" }).click();
  await expect(page.getByText("Biathlon races must have at least 2 laps")).toBeVisible();
  await page.getByLabel("Lap count", { exact: true }).fill("3");
  await page.getByRole("button", { name: "Save setup" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();

  // A course of three laps: range in and out at the start of each lap, the stadium line closing it.
  await addCourse(page, base, "7.5 km");
  await expect(page.getByLabel("Range pattern")).toBeVisible();
  await page.getByLabel("Range pattern").fill("px");
  await page.getByRole("button", { name: "Save course" }).click();
  await expect(page.getByText("Must be some combination of P and S")).toBeVisible();
  await page.getByLabel("Range pattern").fill("ps");
  await page.getByRole("button", { name: "Save course" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
  await addCoursePoint(page, "Range in", "Split", "Range in");
  await addCoursePoint(page, "Range out", "Split", "Range out");
  await addCoursePoint(page, "Stadium", "Lap (finish line)", "Not on the range");

  await addResultFormat(page, base);
  await addRacers(page, base, "7.5 km", [
    { bib: 3, first: "Cara", chip: "BIA3" },
    { bib: 4, first: "Dana", chip: "BIA4" },
  ]);

  // A spectator follows the results on the club's site.
  const { spectator, close } = await openSpectator(browser, raceId);
  await expect(spectator.locator(".results-table thead th")).toHaveText([
    "Rank",
    "Bib",
    "Name",
    "Club",
    "Lap 1",
    "Shooting 1 (P)",
    "Lap 2",
    "Shooting 2 (S)",
    "Lap 3",
    "Time",
    "Diff",
  ]);

  // Laps from the stadium reader, loops from the recorder (Cara skis all three, Dana one of two).
  const read = (seq: number, bib: number, channel: number | null, s: number) => ({
    seq,
    chip: `BIA${bib}`,
    time: startTimeUs + s * SECOND_US,
    ...(channel === null ? {} : { channel }),
  });
  await postAsDevice(`/timing-api/races/${raceId}/reads`, stadiumToken, {
    reads: [
      read(1, 3, 1, 400),
      read(2, 3, 2, 410),
      read(3, 3, 3, 440),
      read(4, 3, 1, 900),
      read(5, 3, 2, 910),
      read(6, 3, 3, 945),
      read(7, 3, 1, 1300),
      read(8, 4, 1, 380),
      read(9, 4, 1, 880),
      read(10, 4, 1, 1250),
    ],
  });
  await postAsDevice(`/timing-api/races/${raceId}/reads`, loopToken, {
    reads: [read(1, 3, null, 460), read(2, 3, null, 490), read(3, 3, null, 950), read(4, 4, null, 470)],
  });
  // Dana's misses come from the range-data device; Cara's are typed on the keypad page.
  expect(
    await postAsDevice(`/timing-api/races/${raceId}/range`, keypadToken, {
      entries: [
        { seq: 1, bib: 4, shooting: 1, misses: 2 },
        { seq: 2, bib: 4, shooting: 2, misses: 0 },
      ],
    }),
  ).toEqual({ accepted: 2, duplicates: 0, unknown: [] });

  await page.goto(url(MAIN, `${base}/keypad`));
  await waitForHydration(page);
  const range = page.getByRole("group", { name: "Record misses at the range" });
  for (const [shooting, misses] of [
    ["1", "2 misses"],
    ["2", "1 miss"],
  ] as const) {
    await range.getByLabel("Shooting").selectOption(shooting);
    await range.getByLabel("Bib").fill("3");
    await range.getByRole("button", { name: misses, exact: true }).click();
  }
  await expect(page.getByText("All entries are sent.")).toBeVisible();

  // Dana was faster on the stadium clock (1250 s against 1300 s) but owes a loop: +60 s puts her second.
  const rows = spectator.locator(".results-table tbody tr");
  await expect(rows.nth(0)).toHaveAttribute("data-bib", "3");
  await expect(rows.nth(0).locator(".result-time")).toHaveText("21:40.0");
  await expect(rows.nth(0).locator("td").nth(5)).toHaveText("2");
  await expect(rows.nth(0).locator("td").nth(7)).toHaveText("1");
  await expect(rows.nth(1)).toHaveAttribute("data-bib", "4");
  await expect(rows.nth(1).locator(".result-time")).toHaveText("21:50.0");
  await expect(rows.nth(1).locator("td").last()).toHaveText("+10.0");
  await close();
});
