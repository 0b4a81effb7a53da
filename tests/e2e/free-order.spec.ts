import { expect, test } from "@playwright/test";
import { url, waitForHydration } from "./hosts";
import { addDevice, addPoint, addResultFormat, createRaceThroughPages, MAIN, openSpectator, postAsDevice, SECOND_US } from "./race-pages";

test("an organiser sets up a free-order segment race through the pages; course groups rank in any or the listed order", async ({ page, browser }) => {
  test.setTimeout(150_000);
  const { raceId, base, startTimeUs } = await createRaceThroughPages(page, "Free order");
  const token = await addDevice(page, base, "Impinj (Passive Chip Reader)", "Segment boxes");
  for (const [i, name] of ["A start", "A finish", "B start", "B finish"].entries()) await addPoint(page, base, name, "Segment boxes", String(i + 1));

  await page.goto(url(MAIN, base));
  await page.getByLabel("Timing mode").selectOption({ label: "Enduro" });
  await page.getByLabel("Free order: racers ride the segments in any order").check();
  await page.getByRole("radio", { name: /^Public/ }).check();
  await page.getByRole("button", { name: "Save setup" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();

  // The race got its default course group; segments are added with the spec's default name or a chosen one.
  await page.getByRole("navigation", { name: "Race administration" }).getByRole("link", { name: "Segments" }).click();
  await expect(page.getByRole("heading", { name: "Segments", exact: true })).toBeVisible();
  await expect(page.locator("section[aria-labelledby='course-groups-heading'] table tbody th")).toHaveText(["All Racers"]);
  const segmentForm = page.locator("section[aria-labelledby='new-segment-heading']");
  await segmentForm.getByLabel("Start point").selectOption({ label: "B start" });
  await segmentForm.getByLabel("Finish point").selectOption({ label: "B finish" });
  await segmentForm.getByLabel("Minimum time (seconds)").fill("30");
  await segmentForm.getByRole("button", { name: "Add segment" }).click();
  await page.waitForURL((u) => u.searchParams.get("saved") === "added");
  await segmentForm.getByLabel("Name").fill("Rock garden");
  await segmentForm.getByLabel("Start point").selectOption({ label: "A start" });
  await segmentForm.getByLabel("Finish point").selectOption({ label: "A finish" });
  await segmentForm.getByLabel("Minimum time (seconds)").fill("30");
  await segmentForm.getByRole("button", { name: "Add segment" }).click();
  await page.waitForURL((u) => u.searchParams.get("saved") === "added");
  const segmentNames = page.locator(".segment-table tbody th");
  await expect(segmentNames).toHaveText(["Segment #1", "Rock garden"]);

  // Reordered from the keyboard (Move up), then back by dragging.
  await page.getByRole("button", { name: "Move Rock garden up" }).focus();
  await page.keyboard.press("Enter");
  await page.waitForURL((u) => u.searchParams.get("saved") === "moved");
  await expect(segmentNames).toHaveText(["Rock garden", "Segment #1"]);
  await waitForHydration(page);
  await page.locator(".segment-table tbody tr").nth(1).dragTo(page.locator(".segment-table tbody tr").nth(0));
  await expect(page.getByText("Moved “Segment #1” to position 1 of 2.")).toBeAttached();
  await page.reload();
  await expect(segmentNames).toHaveText(["Segment #1", "Rock garden"]);

  // Saving resynced the courses (one per segment) and rebuilt the start groups.
  await page.goto(url(MAIN, `${base}/courses`));
  await expect(page.getByRole("note")).toContainText("This is a free-order race");
  await expect(page.locator("table tbody th")).toHaveText(["Segment #1", "Rock garden"]);
  await page.goto(url(MAIN, `${base}/startgroups`));
  await expect(page.locator("table tbody th")).toHaveText(["Segment #1", "Rock garden"]);

  // Juniors ride both segments in the segment list's order: B (Segment #1), then A (Rock garden).
  await page.goto(url(MAIN, `${base}/segments`));
  const groupForm = page.locator("section[aria-labelledby='new-group-heading']");
  await groupForm.getByLabel("Name").fill("Junior");
  await groupForm.getByLabel("In the order of the segment list").check();
  await groupForm.getByLabel("Racers whose field").selectOption({ label: "Category" });
  await groupForm.getByLabel("Value").fill("U16");
  await groupForm.getByRole("button", { name: "Add course group" }).click();
  await page.waitForURL((u) => u.searchParams.get("saved") === "added");
  await expect(page.locator("section[aria-labelledby='course-groups-heading'] table tbody tr")).toHaveText([
    /All Racers\s*In any order\s*Every segment\s*None/,
    /Junior\s*In the order of the segment list\s*Every segment\s*Category is U16/,
  ]);

  await addResultFormat(page, base);
  for (const racer of [
    { bib: 1, first: "Ana", chip: "F1", course: "All Racers", category: "" },
    { bib: 2, first: "Jo", chip: "F2", course: null, category: "U16" },
  ]) {
    await page.goto(url(MAIN, `${base}/racers/new`));
    await page.getByLabel("First name").fill(racer.first);
    await page.getByLabel("Last name").fill("Rider");
    await page.getByLabel("Bib").fill(String(racer.bib));
    await page.getByLabel("Chip", { exact: true }).fill(racer.chip);
    await page.getByLabel("Category").fill(racer.category);
    if (racer.course) await page.getByLabel("Course").selectOption({ label: racer.course });
    await page.getByRole("button", { name: "Add racer" }).click();
    await page.waitForURL(/done=created/);
  }

  const { spectator, close } = await openSpectator(browser, raceId);
  // One group at a time: the first tab is open, the others a click away.
  const open = spectator.getByRole("region", { name: "All Racers" });
  const junior = spectator.getByRole("region", { name: "Junior" });
  await expect(open.locator(".results-table thead th")).toHaveText(["Rank", "Bib", "Name", "Club", "Segment #1", "Rock garden", "Time", "Diff"]);

  // Ana rides Rock garden (3:00) before Segment #1 (2:00): any order, 5:00.
  // Jo rides Rock garden (2:40), Segment #1 (2:30), then Rock garden again (2:20). Juniors ride Segment #1 first, so
  // his first Rock garden run does not count and the later one does: 2:30 + 2:20 = 4:50 (in any order it would be 5:10).
  const read = (seq: number, chip: string, channel: number, s: number) => ({ seq, chip, channel, time: startTimeUs + s * SECOND_US });
  await postAsDevice(`/timing-api/races/${raceId}/reads`, token, {
    reads: [
      read(1, "F1", 1, 100),
      read(2, "F1", 2, 280),
      read(3, "F1", 3, 400),
      read(4, "F1", 4, 520),
      read(5, "F2", 1, 100),
      read(6, "F2", 2, 260),
      read(7, "F2", 3, 300),
      read(8, "F2", 4, 450),
      read(9, "F2", 1, 500),
      read(10, "F2", 2, 640),
    ],
  });
  await expect(open.locator("tbody tr").nth(0)).toHaveAttribute("data-bib", "1");
  await expect(open.locator("tbody tr").nth(0).locator(".result-time")).toHaveText("5:00.0");
  await spectator
    .getByRole("navigation", { name: "Result groups" })
    .getByRole("link", { name: /^Junior/ })
    .click();
  await expect(junior.locator("tbody tr").nth(0)).toHaveAttribute("data-bib", "2");
  await expect(junior.locator("tbody tr").nth(0).locator(".result-time")).toHaveText("4:50.0");
  await close();
});
