import { expect, test } from "@playwright/test";
import { demoSites, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

// Issue 26: the site page editor's image upload (decision 0062), in a browser, to the public page and back.
const site = demoSites[0];
const admin = demoUsers[0];
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

test("a site's administrator uploads an image into a page block, a visitor sees it served, and it is removed", async ({ page }) => {
  const tag = Date.now().toString(36);
  await page.goto(url("localhost", "/login"));
  await signInWithPasswordFrom(page, admin.email, admin.password);
  await page.goto(url("localhost", `/site/${site.id}/pages`));
  await waitForHydration(page);
  await page.getByLabel("Title").fill(`Gallery ${tag}`);
  await page.getByLabel("Address").fill(`/gallery-${tag}`);
  await page.getByRole("button", { name: "Create the page" }).click();
  await expect(page.getByRole("heading", { name: `Gallery ${tag}`, level: 1 }).first()).toBeVisible();

  // Not an image: refused with the upload's words, and nothing is saved.
  await page.getByRole("button", { name: "Image", exact: true }).click();
  await page.getByLabel("Upload an image").setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Please correct the fields marked below.")).toBeVisible();

  await page.getByLabel("Upload an image").setInputFiles({ name: "finish.png", mimeType: "image/png", buffer: Buffer.from(TINY_PNG, "base64") });
  await page.getByLabel("Description for readers who cannot see it").fill("The finish line");
  await page.getByRole("button", { name: "Save and publish" }).click();
  await expect(page.getByText("Published: visitors see this page now.")).toBeVisible();
  const address = page.getByLabel("Or its web address (https://…)");
  await expect(address).toHaveValue(new RegExp(`^/media/sites/${site.id}/[0-9a-f]{64}\\.png$`));
  const src = await address.inputValue();

  const visitor = await page.context().browser()!.newContext();
  const visitorPage = await visitor.newPage();
  // Node cannot resolve *.localhost; the browser's own fetch of the image is the one checked.
  const imageResponse = visitorPage.waitForResponse((r) => new URL(r.url()).pathname === src);
  await visitorPage.goto(url(site.hostname, `/gallery-${tag}`));
  const shown = visitorPage.getByRole("img", { name: "The finish line" });
  await expect(shown).toHaveAttribute("src", src);
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  const served = await imageResponse;
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

  // Removed from the page: the visitor's next look shows no image.
  await page.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByLabel("Upload an image")).toHaveCount(0);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
  await visitorPage.reload();
  await expect(visitorPage.getByRole("heading", { name: `Gallery ${tag}`, level: 1 })).toBeVisible();
  await expect(visitorPage.getByRole("img", { name: "The finish line" })).toHaveCount(0);
  await visitor.close();

  // The demo site is left as it was.
  await page.getByRole("button", { name: "Delete this page" }).click();
  await expect(page.getByText(`Gallery ${tag}`)).toHaveCount(0);
});
