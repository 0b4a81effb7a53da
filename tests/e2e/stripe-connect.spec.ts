import { expect, test } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";
import { signUpWithLink, url, waitForHydration } from "./hosts";

const MAIN = "localhost";
// scripts/serve-test.ts starts the Stripe fake beside the Worker, on STRIPE_FAKE_PORT or the Worker's port + 3400.
const STRIPE_FAKE_ORIGIN = `http://127.0.0.1:${process.env.STRIPE_FAKE_PORT ?? E2E_PORT + 3400}`;

// A club of its own, started in the test, so no other spec's club changes how it is paid.
test("a club's admin connects the club's Stripe account through Stripe's onboarding and sees charges enabled", async ({ page }) => {
  test.setTimeout(90_000);
  const tag = Date.now().toString(36);
  await signUpWithLink(page, `treasurer-${tag}@example.com`, "Tess Treasurer");
  await page.getByRole("link", { name: "Start a club" }).click();
  await page.getByLabel("Club name").fill(`Glacier Paddlers ${tag}`);
  await page.getByLabel("Sport").selectOption("Triathlon");
  await page.getByLabel("Country").selectOption("CA");
  await page.getByLabel("Site address").fill(`glacier-${tag}`);
  await page.getByRole("button", { name: "Start the club" }).click();
  await page.waitForURL(/\/club\/[0-9a-f-]{36}\/overview$/);
  const clubId = new URL(page.url()).pathname.split("/")[2]!;

  await page.goto(url(MAIN, `/club/${clubId}/admin`));
  await waitForHydration(page);
  const section = page.getByRole("region", { name: "Card payments" });
  await expect(section.getByTestId("stripe-status")).toHaveText("Not connected");
  await section.getByRole("button", { name: "Connect with Stripe" }).click();

  // Stripe's hosted onboarding (the local fake's page): leaving early says what is still due.
  await page.waitForURL(`${STRIPE_FAKE_ORIGIN}/connect/onboarding/**`);
  await page.getByRole("link", { name: "Leave for now" }).click();
  await page.waitForURL(url(MAIN, `/club/${clubId}/admin?saved=stripeReturned`));
  await expect(section.getByTestId("stripe-status")).toHaveText(/^Onboarding not finished: \d+ requirements due$/);

  await section.getByRole("button", { name: "Continue onboarding" }).click();
  await page.waitForURL(`${STRIPE_FAKE_ORIGIN}/connect/onboarding/**`);
  await page.getByRole("button", { name: "Complete onboarding" }).click();

  // Back on the club's page, with the status read from Stripe.
  await page.waitForURL(url(MAIN, `/club/${clubId}/admin?saved=stripeReturned`));
  await expect(page.getByText("Back from Stripe: the card payment status below is up to date.")).toBeVisible();
  await expect(section.getByTestId("stripe-status")).toHaveText("Charges enabled, payouts enabled");
  await expect(section.getByRole("button")).toHaveCount(0);
});
