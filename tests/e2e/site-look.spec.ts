import { expect, test } from "@playwright/test";
import { demoSites, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const site = demoSites[1];
/** A 1 × 1 PNG. */
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const admin = demoUsers[0];

test("a site's administrator changes its colours, is told when text would be unreadable, and sees the new look on the public site", async ({ page }) => {
  await page.goto(url("localhost", "/login"));
  await signInWithPasswordFrom(page, admin.email, admin.password);
  const settings = url("localhost", `/site/${site.id}/settings`);
  await page.goto(settings);
  await waitForHydration(page);
  const primary = page.getByLabel("Primary colour");
  const original = await primary.inputValue();

  // The preview follows a colour as it is picked, before anything is saved.
  await page.getByLabel("Text colour").fill("#dddddd");
  await expect(page.getByLabel("Preview")).toHaveCSS("color", "rgb(221, 221, 221)");
  await page.getByRole("button", { name: "Save the look" }).click();
  await expect(page.getByText("Text on the background needs a contrast of at least 4.5:1; these colours give 1.3:1")).toBeVisible();

  await page.getByLabel("Text colour").fill("#102030");
  await primary.fill("#7a1f3d");
  await page.getByRole("button", { name: "Save the look" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();

  const visitor = await page.context().newPage();
  await visitor.goto(url(site.hostname, "/"));
  expect(await visitor.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--colour-primary").trim())).toBe("#7a1f3d");

  // A logo: checked for what it is, then in the public site's header.
  await page.getByLabel("New logo").setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
  await page.getByRole("button", { name: "Upload the logo" }).click();
  await expect(page.getByText("A logo must be a PNG, JPEG, WebP or GIF image")).toBeVisible();
  await page.getByLabel("New logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from(TINY_PNG, "base64") });
  await page.getByRole("button", { name: "Upload the logo" }).click();
  await expect(page.getByRole("img", { name: "The site's logo" })).toBeVisible();
  await visitor.reload();
  const logo = visitor.locator(".site-header img");
  await expect(logo).toHaveAttribute("src", /^\/media\/sites\//);
  expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await page.getByRole("button", { name: "Remove the logo" }).click();
  await expect(page.getByText("No logo yet")).toBeVisible();

  // Put the demo site back as it was for the other tests.
  await page.getByLabel("Text colour").fill("#111827");
  await primary.fill(original);
  await page.getByRole("button", { name: "Save the look" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
});
