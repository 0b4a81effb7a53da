import { expect, test } from "@playwright/test";
import { demoApp, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

test("a club admin creates a confidential app, sees its secret once and deletes it after confirming", async ({ page }) => {
  const coach = demoUsers[1];
  const name = `E2E Timing Bridge ${Date.now()}`;

  await page.goto(url("localhost", "/manage/apps"));
  await signInWithPasswordFrom(page, coach.email, coach.password);
  await expect(page).toHaveURL(url("localhost", "/manage/apps"));
  await expect(page.getByRole("heading", { name: "Applications" })).toBeVisible();
  // The demo app belongs to the coach's club.
  await expect(page.getByRole("link", { name: demoApp.name })).toBeVisible();
  await waitForHydration(page);

  await page.getByRole("link", { name: "Create an application" }).first().click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Description").fill("Sends chip times from the finish line");
  await page.getByLabel("Redirect URIs").fill("https://bridge.example/callback");
  await page.getByRole("checkbox", { name: "races", exact: true }).check();
  await page.getByRole("radio", { name: /^Confidential/ }).check();
  await page.getByRole("button", { name: "Create application" }).click();

  await expect(page.getByRole("heading", { name: "Application created" })).toBeVisible();
  const secret = (await page.getByTestId("client-secret").textContent()) ?? "";
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("alert")).toContainText("It will not be shown again");

  await page.getByRole("link", { name: "Open the application" }).click();
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);

  await page.getByRole("link", { name: "Delete this application…" }).click();
  await expect(page.getByRole("heading", { name: `Delete application “${name}”?` })).toBeVisible();
  await expect(page.getByText("This revokes every token it holds")).toBeVisible();
  // Confirmed from the keyboard.
  await page.getByRole("button", { name: "Delete application" }).focus();
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/manage\/apps\?deleted=/);
  await expect(page.getByRole("status")).toContainText(`Deleted “${name}”`);
  await expect(page.getByRole("link", { name })).toHaveCount(0);
  await expect(page.getByRole("link", { name: demoApp.name })).toBeVisible();
});
