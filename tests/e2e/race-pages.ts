/** Setting a race up through the organiser's pages, for the timing-mode specs. */
import { expect, type Browser, type Page } from "@playwright/test";
import { send } from "../../bench/http";
import { E2E_PORT } from "../../playwright.config";
import { demoSites, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

export const MAIN = "localhost";
export const SECOND_US = 1_000_000;

/**
 * Signs in as the demo club admin and creates a race that started an hour ago in a UTC+0 zone (so every
 * read a spec sends falls in its window); returns its id, admin base path and start in microseconds.
 */
export async function createRaceThroughPages(page: Page, name: string): Promise<{ raceId: string; base: string; startTimeUs: number }> {
  const coach = demoUsers[1];
  await page.goto(url(MAIN, "/login"));
  await signInWithPasswordFrom(page, coach.email, coach.password);
  await page.waitForURL(url(MAIN, "/manage"));
  return createAnotherRace(page, name, 0);
}

/** Creates a race as the signed-in admin, starting an hour ago less `daysEarlier` days (a stage race's earlier stages). */
export async function createAnotherRace(page: Page, name: string, daysEarlier: number): Promise<{ raceId: string; base: string; startTimeUs: number }> {
  const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000 - daysEarlier * 86_400_000);
  await page.goto(url(MAIN, "/race/new"));
  await page.getByLabel("Name").fill(`${name} ${crypto.randomUUID().slice(0, 6)}`);
  await page.getByLabel("Start", { exact: true }).fill(start.toISOString().slice(0, 16));
  await page.getByLabel("Time zone").selectOption("Africa/Abidjan"); // UTC all year, no summer time
  await page.getByRole("button", { name: "Create race" }).click();
  await page.waitForURL(/\/race\/[0-9a-f-]+\/admin$/);
  const raceId = new URL(page.url()).pathname.split("/")[2]!;
  return { raceId, base: `/race/${raceId}/admin`, startTimeUs: start.getTime() * 1000 };
}

/** Adds a device on the devices page and returns the credential it shows once. */
export async function addDevice(page: Page, base: string, type: string, name: string): Promise<string> {
  await page.goto(url(MAIN, `${base}/devices`));
  await page.getByLabel("Type").selectOption({ label: type });
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Add device" }).click();
  const token = (await page.getByTestId("device-token").textContent())!.trim();
  expect(token.length).toBeGreaterThan(20);
  return token;
}

/** Adds a timing point fed by one device (and channel) on the points page. */
export async function addPoint(page: Page, base: string, name: string, device: string, channel: string) {
  await page.goto(url(MAIN, `${base}/points`));
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Add timing point" }).click();
  await page.waitForURL((u) => u.searchParams.has("edit"));
  await page.getByLabel("Device", { exact: true }).selectOption({ label: device });
  await page.getByLabel("Channel").fill(channel);
  await page.getByRole("button", { name: "Add device" }).click();
  await expect(page.getByRole("cell", { name: device })).toBeVisible();
}

/** Adds a crossing to the course being edited; `rangeRole` only in a biathlon race. */
export async function addCoursePoint(page: Page, timingPoint: string, mode: string, rangeRole?: string) {
  await page.getByLabel("Timing point").selectOption({ label: timingPoint });
  await page.getByLabel("Mode").selectOption({ label: mode });
  if (rangeRole) await page.getByLabel("Shooting range").selectOption({ label: rangeRole });
  await page.getByLabel("Minimum split (seconds)").fill("0");
  await page.getByRole("button", { name: "Add point" }).click();
  await expect(page.getByRole("rowheader", { name: timingPoint })).toBeVisible();
}

/** Adds a course on the courses page and leaves the page on its editor. */
export async function addCourse(page: Page, base: string, name: string) {
  await page.goto(url(MAIN, `${base}/courses`));
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Add course" }).click();
  await page.waitForURL((u) => u.searchParams.has("edit"));
}

/** A spectator on the demo club's site following a race's live results (a context of its own); close it when done. */
export async function openSpectator(browser: Browser, raceId: string): Promise<{ spectator: Page; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const spectator = await context.newPage();
  await spectator.goto(url(demoSites[0].hostname, `/races/${raceId}`));
  await waitForHydration(spectator);
  await expect(spectator.locator("[data-live-state]")).toHaveAttribute("data-live-state", "live");
  return { spectator, close: () => context.close() };
}

/** A public result format listing every racer. */
export async function addResultFormat(page: Page, base: string) {
  await page.goto(url(MAIN, `${base}/formats`));
  await page.getByLabel("Name").fill("Results");
  await page.getByRole("button", { name: "Add result format" }).click();
  await page.waitForURL((u) => u.searchParams.has("saved"));
}

/** Adds racers on the racer page, all on one course. */
export async function addRacers(page: Page, base: string, course: string, racers: readonly { bib: number; first: string; chip: string }[]) {
  for (const r of racers) {
    await page.goto(url(MAIN, `${base}/racers/new`));
    await page.getByLabel("First name").fill(r.first);
    await page.getByLabel("Last name").fill("Racer");
    await page.getByLabel("Bib").fill(String(r.bib));
    await page.getByLabel("Chip", { exact: true }).fill(r.chip);
    await page.getByLabel("Course").selectOption({ label: course });
    await page.getByRole("button", { name: "Add racer" }).click();
    await page.waitForURL(/done=created/);
  }
}

/** Posts JSON to the timing API with a device credential and expects it taken. */
export async function postAsDevice(path: string, token: string, body: unknown): Promise<unknown> {
  const reply = await send(E2E_PORT, MAIN, "POST", path, JSON.stringify(body), { "Content-Type": "application/json", Authorization: `Bearer ${token}` });
  expect(reply.status, reply.body).toBe(200);
  return JSON.parse(reply.body) as unknown;
}

/**
 * A point-to-point race with one "Finish" point fed by a finish mat, a public result format and these racers
 * on one course, set up through the pages; returns the mat's credential.
 */
export async function setUpFinishOnlyRace(page: Page, base: string, course: string, racers: readonly { bib: number; first: string; chip: string }[]) {
  const token = await addDevice(page, base, "Impinj (Passive Chip Reader)", "Finish mat");
  await addPoint(page, base, "Finish", "Finish mat", "1");
  await page.goto(url(MAIN, base));
  await page.getByLabel("Timing mode").selectOption({ label: "Point to point" });
  await page.getByRole("radio", { name: /^Public/ }).check();
  await page.getByRole("button", { name: "Save setup" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
  await addCourse(page, base, course);
  await addCoursePoint(page, "Finish", "Lap (finish line)");
  await addResultFormat(page, base);
  await addRacers(page, base, course, racers);
  return token;
}
