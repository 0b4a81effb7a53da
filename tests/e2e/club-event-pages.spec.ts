import { expect, test } from "@playwright/test";
import { demoRaces, demoRegistrations, demoSites, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const now = Date.now();
const site = demoSites[0];
const clubAdmin = demoUsers[1];
const superAdmin = demoUsers[0];
const race = demoRaces(now)[0]!;
const form = demoRegistrations(now)[0]!;
// A 1×1 PNG: a real image, so the browser draws it.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

test("a club admin creates an event page with a banner, a race and a form, publishes it and finds it on the site; the home page gets its blocks", async ({
  page,
  browser,
}) => {
  const tag = Date.now().toString(36);
  const title = `Moonlight Loppet ${tag}`;
  await page.goto(url("localhost", "/login"));
  await signInWithPasswordFrom(page, clubAdmin.email, clubAdmin.password);
  await page.goto(url("localhost", `/club/${clubAdmin.role.clubId}/overview`));
  await page.getByRole("link", { name: "Event pages" }).click();
  await expect(page.getByRole("heading", { name: "Event pages", level: 1 })).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Event name").fill(title);
  await page.getByRole("button", { name: "Start the event page" }).click();
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText("State: Draft")).toBeVisible();

  await page.getByLabel("Address on the site").fill(`moonlight-${tag}`);
  const start = new Date(now + 30 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("First day").fill(start);
  await page.getByLabel("Description").fill("A night race under the lanterns.");
  await page.getByLabel(race.name, { exact: true }).check();
  await page.getByLabel(form.name, { exact: true }).check();
  await page.getByLabel("Public: shown on the site's events (needs an address)").check();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
  await expect(page.getByLabel(race.name, { exact: true })).toBeChecked();

  await page.getByLabel("New banner").setInputFiles({ name: "banner.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Upload the banner" }).click();
  await expect(page.getByRole("img", { name: "The event's banner" })).toBeVisible();

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(url(site.hostname, "/events"));
  await visitorPage.getByRole("link", { name: title }).click();
  await expect(visitorPage.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(visitorPage.getByRole("link", { name: race.name }).first()).toBeVisible();
  await expect(visitorPage.getByText(form.name).first()).toBeVisible();
  await expect(visitorPage.locator(`img[src^="/media/sites/${site.id}/"]`)).toBeVisible();
  await expect(page.getByRole("link", { name: "View on the site" })).toHaveAttribute("href", new RegExp(`/events/moonlight-${tag}$`));

  // The site's administrator puts a heading and the upcoming events on the home page.
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await adminPage.goto(url("localhost", "/login"));
  await signInWithPasswordFrom(adminPage, superAdmin.email, superAdmin.password);
  await adminPage.goto(url("localhost", `/site/${site.id}/settings`));
  await adminPage.getByRole("link", { name: "Edit the home page" }).click();
  await waitForHydration(adminPage);
  await adminPage.getByRole("button", { name: "Heading", exact: true }).click();
  await adminPage.getByLabel("Heading", { exact: true }).fill(`Welcome to the hills ${tag}`);
  await adminPage.getByRole("button", { name: "Upcoming events", exact: true }).click();
  await expect(adminPage.getByLabel("Heading above the list")).toHaveValue("Upcoming events");
  await adminPage.getByRole("button", { name: "Save the home page" }).click();
  await expect(adminPage.getByText("Saved: visitors see the new home page now.")).toBeVisible();
  await expect(adminPage.getByLabel("Preview").getByRole("link", { name: title })).toBeVisible();

  try {
    await visitorPage.goto(url(site.hostname, "/"));
    await expect(visitorPage.getByRole("heading", { name: `Welcome to the hills ${tag}` })).toBeVisible();
    await expect(visitorPage.getByRole("region", { name: "Upcoming events" }).getByRole("link", { name: title })).toBeVisible();
  } finally {
    // The demo site's home page goes back to its default for the other tests.
    await adminPage.getByRole("button", { name: "Remove" }).first().click();
    await expect(adminPage.getByRole("button", { name: "Remove" })).toHaveCount(1);
    await adminPage.getByRole("button", { name: "Remove" }).first().click();
    await expect(adminPage.getByText("No blocks yet: add one below.")).toBeVisible();
    await adminPage.getByRole("button", { name: "Save the home page" }).click();
    await expect(adminPage.getByText("Saved: visitors see the new home page now.")).toBeVisible();
  }
  await visitorPage.goto(url(site.hostname, "/"));
  await expect(visitorPage.getByText(site.config.tagline)).toBeVisible();
  await visitor.close();
  await admin.close();
});
