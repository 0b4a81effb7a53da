import { expect, test } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";
import { demoRegistrations, demoSites } from "../../scripts/demo-data";
import { openMail, url, waitForHydration } from "./hosts";

const RIVERSIDE_SITE = demoSites[1].hostname;
const riversideRace = demoRegistrations(Date.now()).find((r) => r.siteId === demoSites[1].id)!;
// scripts/serve-test.ts starts the Stripe fake beside the Worker, on STRIPE_FAKE_PORT or the Worker's port + 3400.
const STRIPE_FAKE_ORIGIN = `http://127.0.0.1:${process.env.STRIPE_FAKE_PORT ?? E2E_PORT + 3400}`;

// Decision 0061: a registrant who paid for 12 km changes to 25 km from the receipt; the difference (20.00 and its
// 13% tax) is paid on Stripe's page, and the receipt then reads the new distance and the new total.
test("a registrant changes a paid distance after checkout: the difference is charged by card and the receipt is updated", async ({ page }) => {
  const stamp = Date.now().toString(36);
  const email = `change-${stamp}@example.com`;
  const lastName = `Changer${stamp}`;

  await page.goto(url(RIVERSIDE_SITE, `/register/${riversideRace.id}`));
  await waitForHydration(page);
  await page.getByLabel("First name").fill("Noor");
  await page.getByLabel("Last name").fill(lastName);
  await page.getByRole("textbox", { name: /^Email/ }).fill(email);
  await page.getByLabel(/^Distance/).selectOption({ label: "12 km — $40.00" });
  await page.getByRole("button", { name: "Add to cart" }).click();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByRole("button", { name: "Pay $46.20 by card" }).click();
  await page.waitForURL((u) => u.origin === STRIPE_FAKE_ORIGIN && /^\/c\/pay\/cs_/.test(u.pathname));
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $46.20" }).click();
  await page.waitForURL(url(RIVERSIDE_SITE, `/register/${riversideRace.id}/receipt`), { timeout: 15_000 });
  await expect(page.getByTestId("receipt-total")).toHaveText("$46.20");

  // The change form offers the distance; 25 km costs 20.00 more, and 2.60 of tax on it.
  await waitForHydration(page);
  await page.getByRole("link", { name: "Change these details" }).click();
  const change = page.getByTestId("person-change");
  await expect(change.getByText("A change that costs more is paid by card before it is saved")).toBeVisible();
  await change.getByLabel(/^Distance/).selectOption("25k");
  await change.getByRole("button", { name: "Save the change" }).dblclick();
  await page.waitForURL((u) => u.origin === STRIPE_FAKE_ORIGIN && /^\/c\/pay\/cs_/.test(u.pathname));
  await expect(page.getByTestId("total")).toHaveText("$22.60");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $22.60" }).click();

  await page.waitForURL((u) => u.pathname === `/register/${riversideRace.id}/receipt`, { timeout: 15_000 });
  await expect(page.getByTestId("changed-notice")).toHaveText("The change is saved.");
  await expect(page.getByTestId("receipt-item").filter({ hasText: "25 km" })).toContainText("$60.00");
  await expect(page.getByTestId("receipt-item").filter({ hasText: "12 km" })).toHaveCount(0);
  await expect(page.getByTestId("receipt-total")).toHaveText("$68.80");
  await expect(page.getByTestId("receipt-paid")).toHaveText("$68.80");
  await expect(page.getByText("Payment by card: $22.60")).toBeVisible();
  const mail = await openMail(page, email, `Registration changed: ${riversideRace.name}`);
  await expect(mail).toContainText("Total: $68.80");
});

// Issue 24: the same path on the bilingual Riverside form filled in French: every page and mail of it in French,
// with prices written the French way (68,80 $).
test("en français : la personne inscrite change une distance payée, paie la différence par carte, et le reçu et le courriel suivent", async ({ page }) => {
  const stamp = Date.now().toString(36);
  const email = `changement-${stamp}@example.com`;
  const lastName = `Modif${stamp}`;

  await page.goto(url(RIVERSIDE_SITE, `/register/${riversideRace.id}?lang=fr`));
  await waitForHydration(page);
  await page.getByLabel("Prénom").fill("Noémie");
  await page.getByLabel("Nom de famille").fill(lastName);
  await page.getByRole("textbox", { name: /^Courriel/ }).fill(email);
  await page.getByLabel(/^Distance/).selectOption({ label: "12 km — 40,00\u00a0$" });
  await page.getByRole("button", { name: "Ajouter au panier" }).click();
  await page.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await page.getByRole("button", { name: "Payer 46,20\u00a0$ par carte" }).click();
  await page.waitForURL((u) => u.origin === STRIPE_FAKE_ORIGIN && /^\/c\/pay\/cs_/.test(u.pathname));
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay / }).click();
  await page.waitForURL((u) => u.pathname === `/register/${riversideRace.id}/receipt`, { timeout: 15_000 });
  await expect(page.getByTestId("receipt-heading")).toHaveText("Inscription terminée");
  await expect(page).toHaveTitle(`Reçu · ${riversideRace.name}`);
  await expect(page.getByRole("table", { name: "Inscriptions (personnes)" })).toBeVisible();
  await expect(page.getByTestId("receipt-total")).toHaveText("46,20\u00a0$");

  // The entry seen and changed in French: 25 km costs 20,00 $ more and 2,60 $ of tax.
  await waitForHydration(page);
  await page.getByRole("link", { name: "Modifier ces renseignements" }).click();
  const change = page.getByTestId("person-change");
  await expect(change.getByText("Une modification qui coûte plus se paie par carte avant d'être enregistrée")).toBeVisible();
  await change.getByLabel(/^Distance/).selectOption("25k");
  await change.getByRole("button", { name: "Enregistrer la modification" }).click();
  await page.waitForURL((u) => u.origin === STRIPE_FAKE_ORIGIN && /^\/c\/pay\/cs_/.test(u.pathname));
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay / }).click();

  await page.waitForURL((u) => u.pathname === `/register/${riversideRace.id}/receipt`, { timeout: 15_000 });
  await expect(page.getByTestId("changed-notice")).toHaveText("La modification est enregistrée.");
  await expect(page.getByTestId("receipt-item").filter({ hasText: "25 km" })).toContainText("60,00\u00a0$");
  await expect(page.getByTestId("receipt-total")).toHaveText("68,80\u00a0$");
  await expect(page.getByTestId("receipt-paid")).toHaveText("68,80\u00a0$");
  await expect(page.getByText("Paiement par carte : 22,60\u00a0$")).toBeVisible();
  await expect(page.locator("main")).not.toContainText("$68.80");
  const mail = await openMail(page, email, `Inscription modifiée : ${riversideRace.name}`);
  await expect(mail).toContainText("Total : 68,80\u00a0$");
  await expect(mail).toContainText("Les renseignements de votre inscription");
  await expect(mail).not.toContainText("Total:");
});
