import { expect, test } from "@playwright/test";
import { send } from "../../bench/http";
import { E2E_PORT } from "../../playwright.config";
import { demoUsers } from "../../scripts/demo-data";
import { setUpDemoRace, signInWithPasswordFrom, url, waitForHydration } from "./hosts";

// A landscape tablet.
test.use({ viewport: { width: 1280, height: 800 } });

test("the announcer screen lists a precall and moves the racer to the latest finishers when they finish, without a reload", async ({ page }) => {
  const demo = await setUpDemoRace(true);
  const announcer = demo.formats.find((f) => f.name === "Announcer")!;
  // The demo club's admin is the demo race's Race Administrator: race staff, who may see its announcer format.
  const coach = demoUsers[1];
  await page.goto(url("localhost", "/login"));
  await signInWithPasswordFrom(page, coach.email, coach.password);
  await page.goto(url("localhost", `/races/${demo.raceId}?format=${announcer.id}`));
  await page.getByRole("link", { name: "Announcer screen" }).click();
  await expect(page).toHaveURL(new RegExp(`/races/${demo.raceId}/announcer\\?format=${announcer.id}$`));
  await waitForHydration(page);
  await expect(page.locator("[data-live-state]")).toHaveAttribute("data-live-state", "live");
  await page.evaluate(() => ((window as unknown as { stillSamePage: boolean }).stillSamePage = true));

  // Bib 112 (30 s laps) has done two laps and the hill of the third, then passes the precall reader.
  const bib = 112;
  const chip = demo.racers.find((r) => r.bib === bib)!.chip;
  const boot = crypto.randomUUID();
  let seq = 0;
  const post = async (device: string, seconds: number[]) => {
    const token = demo.devices.find((d) => d.name === device)!.token;
    const reads = seconds.map((s) => ({ seq: ++seq, chip, time: demo.startTime * 1000 + s * 1_000_000 }));
    const reply = await send(E2E_PORT, "localhost", "POST", `/timing-api/races/${demo.raceId}/reads`, JSON.stringify({ boot, reads }), {
      "Content-Type": "application/json",
      Authorization: `Bearer ${token}`,
    });
    expect(reply.status, reply.body).toBe(200);
  };
  await post("Hill reader", [15, 45, 75]);
  await post("Finish reader", [30, 60]);
  // Read twice as it passes, as chips are.
  await post("Precall reader", [87, 87.3]);
  const precallRow = page.locator(`.precall-row[data-bib="${bib}"]`);
  await expect(precallRow).toBeVisible();
  await expect(precallRow).toContainText("1st of");
  await expect(precallRow).toContainText("Finish");
  await expect(page.locator(".finisher-row")).toHaveCount(0);

  // The finish: they leave the precall list for the latest finishers, first and leading.
  await post("Finish reader", [90]);
  await expect(precallRow).toHaveCount(0);
  const finisher = page.locator(`.finisher-row[data-bib="${bib}"]`);
  await expect(finisher).toBeVisible();
  await expect(finisher.locator(".a-rank")).toHaveText("1st");
  await expect(finisher.locator(".a-time")).toContainText("1:30.0");
  await expect(page.locator(".leader-row").first()).toContainText(`Bib ${bib}`);
  expect(await page.evaluate(() => (window as unknown as { stillSamePage?: boolean }).stillSamePage)).toBe(true);

  // Keys: 2 picks the latest finishers pane; the key list is on the screen.
  await page.keyboard.press("2");
  await expect(page.locator(".announcer")).toHaveAttribute("data-pane", "latest");
  await expect(page.locator(".announcer-keys")).toContainText("Full screen");
});

test("the announcer screen is not found for a visitor", async ({ page }) => {
  const demo = await setUpDemoRace();
  const response = await page.goto(url("localhost", `/races/${demo.raceId}/announcer`));
  expect(response?.status()).toBe(404);
});
