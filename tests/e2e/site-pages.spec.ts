import { expect, test } from "@playwright/test";
import { demoSites, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const site = demoSites[1];
const admin = demoUsers[0];

test("a site's administrator writes a page, previews it, publishes it and adds it to the menu; a visitor finds it", async ({ page }) => {
  const tag = Date.now().toString(36);
  await page.goto(url("localhost", "/login"));
  await signInWithPasswordFrom(page, admin.email, admin.password);
  await page.goto(url("localhost", `/site/${site.id}/pages`));
  await waitForHydration(page);
  await page.getByLabel("Title").fill(`History ${tag}`);
  await page.getByLabel("Address").fill(`/events/${tag}`);
  await page.getByRole("button", { name: "Create the page" }).click();
  await expect(page.getByText("/events is one of the site's own addresses")).toBeVisible();
  await page.getByLabel("Address").fill(`/history-${tag}`);
  await page.getByRole("button", { name: "Create the page" }).click();
  await expect(page.getByRole("heading", { name: `History ${tag}`, level: 1 }).first()).toBeVisible();

  await page.getByRole("button", { name: "Text", exact: true }).click();
  await page.getByLabel("Text", { exact: true }).fill("Founded by the river.\n\nSee [our events](/events).");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
  await expect(page.getByLabel("Preview").getByRole("link", { name: "our events" })).toBeVisible();

  const visitor = await page.context().browser()!.newContext();
  const visitorPage = await visitor.newPage();
  expect((await visitorPage.goto(url(site.hostname, `/history-${tag}`)))!.status()).toBe(404);

  await page.getByRole("button", { name: "Save and publish" }).click();
  await expect(page.getByText("Published: visitors see this page now.")).toBeVisible();

  await page.goto(url("localhost", `/site/${site.id}/settings`));
  await page.locator("#menu-label").fill(`History ${tag}`);
  await page.locator("#menu-href").fill(`/history-${tag}`);
  await page.getByRole("button", { name: "Add the link" }).first().click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();

  await visitorPage.goto(url(site.hostname, "/"));
  await visitorPage
    .getByRole("navigation", { name: "Site" })
    .getByRole("link", { name: `History ${tag}` })
    .click();
  await expect(visitorPage.getByRole("heading", { name: `History ${tag}`, level: 1 })).toBeVisible();
  await expect(visitorPage.getByText("Founded by the river.")).toBeVisible();
  await visitor.close();
});
