/** The Riverside demo form (its Kids' 3 km has 2 places and a waitlist): registering and cancelling through its pages. */
import { expect, type Browser, type Page } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";
import { demoClubs, demoRegistrations, demoSites } from "../../scripts/demo-data";
import { openMail, url, waitForHydration } from "./hosts";

export const RIVERSIDE_SITE = demoSites[1].hostname;
export const riversideRace = demoRegistrations(Date.now()).find((r) => r.siteId === demoSites[1].id)!;
export const STRIPE_FAKE_ORIGIN = `http://127.0.0.1:${process.env.STRIPE_FAKE_PORT ?? E2E_PORT + 3400}`;
export const receiptPath = `/register/${riversideRace.id}/receipt`;
export const KIDS = "Kids' 3 km — $15.00";

/** Opens the form in a page and fills one person's names, email and distance. */
export async function fillPerson(page: Page, first: string, last: string, email: string, distance: string): Promise<void> {
  await page.goto(url(RIVERSIDE_SITE, `/register/${riversideRace.id}`));
  await waitForHydration(page);
  await page.getByLabel("First name").fill(first);
  await page.getByLabel("Last name").fill(last);
  await page.getByRole("textbox", { name: /^Email/ }).fill(email);
  await page.getByLabel(/^Distance/).selectOption({ label: distance });
}

/** On the fake's card page: pays with a good card and lands on the receipt. */
export async function payOnStripePage(page: Page): Promise<void> {
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay / }).click();
  await page.waitForURL(url(RIVERSIDE_SITE, receiptPath), { timeout: 15_000 });
  await expect(page.getByTestId("receipt-heading")).toHaveText("Registration complete");
  await waitForHydration(page);
}

/** A registrant in a browser of their own: registers one person on `distance`, pays by card, lands on the receipt. */
export async function registered(browser: Browser, first: string, last: string, email: string, distance: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await fillPerson(page, first, last, email, distance);
  await page.getByRole("button", { name: "Add to cart" }).click();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByRole("button", { name: /^Pay .* by card$/ }).click();
  await page.waitForURL((u) => u.origin === STRIPE_FAKE_ORIGIN);
  await payOnStripePage(page);
  return page;
}

export async function cancelFromReceipt(page: Page): Promise<void> {
  await page.goto(url(RIVERSIDE_SITE, receiptPath));
  await waitForHydration(page);
  await page.getByText("Cancel this registration").first().click();
  await page.getByRole("button", { name: "Yes, cancel it" }).first().click();
  await expect(page.getByTestId("cancelled-notice")).toBeVisible();
}

/** After "Add to cart" on the full Kids' 3 km: joins its waitlist (a double click joins once) and is number 1. */
export async function joinKidsWaitlist(page: Page, email: string): Promise<void> {
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("alert")).toHaveText("Kids' 3 km is full. Join the waitlist and we will email you if a place opens.");
  await page.getByLabel("Email address for the waitlist").fill(email);
  await page.getByRole("button", { name: "Join the waitlist" }).dblclick();
  await expect(page.getByTestId("waitlist-joined")).toContainText("You are number 1 on the waitlist for Kids' 3 km.");
}

/** The offer mailed to `email` opened in `page`, its card page opened and left, then expired by the fake: the link and the session. */
export async function leaveOfferCardPage(page: Page, mail: Page, email: string): Promise<{ link: string; session: string }> {
  const offer = await openMail(mail, email, `A place is free: ${riversideRace.name}`);
  const link = (await offer.getByRole("link").first().getAttribute("href"))!;
  await page.goto(link);
  await expect(page.getByTestId("place-held")).toContainText("A place is held for you until");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByRole("button", { name: /^Pay .* by card$/ }).click();
  await page.waitForURL((u) => u.origin === STRIPE_FAKE_ORIGIN);
  const session = /\/c\/pay\/(cs_\w+)/.exec(page.url())![1]!;
  const expired = await mail.request.post(`${STRIPE_FAKE_ORIGIN}/v1/checkout/sessions/${session}/expire`, {
    headers: { Authorization: "Bearer sk_test_e2e", "Stripe-Account": demoClubs[1].stripeAccountId },
  });
  expect(expired.ok()).toBe(true);
  return { link, session };
}

/** Back from the offer's mail within its time: the place still held, paid with a double click on Pay (a new page), one receipt. */
export async function payOfferAgain(page: Page, mail: Page, email: string, offer: { link: string; session: string }): Promise<void> {
  await page.goto(offer.link);
  await expect(page.getByTestId("place-held")).toContainText("A place is held for you until");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByRole("button", { name: /^Pay .* by card$/ }).dblclick();
  await page.waitForURL((u) => u.origin === STRIPE_FAKE_ORIGIN);
  expect(page.url()).not.toContain(offer.session);
  await payOnStripePage(page);
  await openMail(mail, email, `Receipt: ${riversideRace.name}`);
  await expect(mail.getByRole("article", { name: `Receipt: ${riversideRace.name}` }).filter({ hasText: `To ${email}` })).toHaveCount(1);
}
