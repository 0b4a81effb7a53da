import { expect, test } from "@playwright/test";
import { demoRaces, demoSites, demoUsers } from "../../scripts/demo-data";
import { setUpDemoRace, signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const [demoRace, trailRace] = demoRaces(Date.now());

test.describe("home pages on every kind of host", () => {
  test("the main host lists public races and hydrates @phone", async ({ page }) => {
    await page.goto(url("localhost"));
    await expect(page).toHaveTitle("Startline");
    await expect(page.getByRole("heading", { name: "Upcoming races" })).toBeVisible();
    await expect(page.getByRole("link", { name: demoRace!.name })).toBeVisible();
    await expect(page.getByRole("link", { name: trailRace!.name })).toBeVisible();
    await waitForHydration(page);
    // Nothing sticks out sideways on a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test("the demo site shows its own theme and only its own races @phone", async ({ page }) => {
    await page.goto(url(demoSites[0].hostname));
    await expect(page).toHaveTitle(demoSites[0].config.name);
    await expect(page.locator(".site-header")).toHaveCSS("background-color", "rgb(30, 58, 138)");
    await expect(page.getByRole("link", { name: demoRace!.name })).toBeVisible();
    await expect(page.getByText(trailRace!.name)).toHaveCount(0);
    await expect(page.getByText("Powered by Startline")).toBeVisible();
    await waitForHydration(page);
  });

  test("the super-admin host shows the administration areas", async ({ page }) => {
    await page.goto(url("admin.localhost"));
    await expect(page.getByRole("heading", { name: "System administration" })).toBeVisible();
    await waitForHydration(page);
    await page.getByRole("link", { name: "Whitelabel Sites" }).click();
    // An area is for System Administrators configured for it: sign in first, then it opens.
    await expect(page).toHaveURL(url("admin.localhost", "/login?goto=%2F_admin%2Fsites"));
    const superAdmin = demoUsers.find((u) => u.role.type === "system_admin")!;
    await signInWithPasswordFrom(page, superAdmin.email, superAdmin.password);
    await expect(page).toHaveURL(url("admin.localhost", "/_admin/sites"));
    await expect(page.getByRole("heading", { name: "Whitelabel Sites" })).toBeVisible();
  });

  test("an unknown host gets the no-site page", async ({ page }) => {
    const response = await page.goto(url("nowhere.localhost"));
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "No site is at this address" })).toBeVisible();
  });

  test("a page that does not exist gets a 404 in the site's layout", async ({ page }) => {
    const response = await page.goto(url(demoSites[0].hostname, "/no/such/page"));
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.locator(".site-header")).toContainText(demoSites[0].config.name);
  });
});

test.describe("before hydration", () => {
  test.use({ javaScriptEnabled: false });

  test("the race search works as a plain form", async ({ page }) => {
    await page.goto(url("localhost"));
    await page.getByLabel("Search races, clubs and places").fill("riverside");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\?q=riverside/);
    await expect(page.getByRole("link", { name: trailRace!.name })).toBeVisible();
    await expect(page.getByRole("link", { name: demoRace!.name })).toHaveCount(0);
  });
});

test("a race page goes live over its RaceRoom socket @phone", async ({ page }) => {
  await setUpDemoRace();
  await page.goto(url(demoSites[0].hostname));
  await page.getByRole("link", { name: demoRace!.name }).click();
  await expect(page.getByRole("heading", { name: demoRace!.name })).toBeVisible();
  await expect(page.getByRole("status")).toHaveAttribute("data-live-state", "live");
  await expect(page.getByRole("status")).toHaveText(/Live: results update as they come in/);
});
