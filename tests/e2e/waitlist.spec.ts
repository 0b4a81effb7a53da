import { expect, test, type Page } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";
import { demoRegistrations, demoSites, demoUsers } from "../../scripts/demo-data";
import { openMail, signInWithPasswordFrom, url, waitForHydration } from "./hosts";

// The Riverside demo form's Kids' 3 km has 2 places, and the form has a waitlist that holds a freed place for 24 hours.
const RIVERSIDE_SITE = demoSites[1].hostname;
const riversideRace = demoRegistrations(Date.now()).find((r) => r.siteId === demoSites[1].id)!;
const STRIPE_FAKE_ORIGIN = `http://127.0.0.1:${process.env.STRIPE_FAKE_PORT ?? E2E_PORT + 3400}`;
const KIDS = "Kids' 3 km — $15.00";

async function fillKid(page: Page, first: string, last: string, email: string, lang: "en" | "fr" = "en") {
  await page.goto(url(RIVERSIDE_SITE, `/register/${riversideRace.id}${lang === "fr" ? "?lang=fr" : ""}`));
  await waitForHydration(page);
  await page.getByLabel(lang === "fr" ? "Prénom" : "First name").fill(first);
  await page.getByLabel(lang === "fr" ? "Nom de famille" : "Last name").fill(last);
  await page.getByRole("textbox", { name: lang === "fr" ? /^Courriel/ : /^Email/ }).fill(email);
  await page.getByLabel(/^Distance/).selectOption({ label: lang === "fr" ? "3 km jeunesse — 15,00\u00a0$" : KIDS });
}

/** From the cart: pays by card on the Stripe fake's page and lands on the receipt. */
async function payFromCart(page: Page) {
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByRole("button", { name: /^Pay .* by card$/ }).click();
  await page.waitForURL((u) => u.origin === STRIPE_FAKE_ORIGIN);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay / }).click();
  await page.waitForURL(url(RIVERSIDE_SITE, `/register/${riversideRace.id}/receipt`), { timeout: 15_000 });
  await expect(page.getByTestId("receipt-heading")).toHaveText("Registration complete");
}

test("a full race offers the waitlist; a cancellation offers the place to the first in line, who takes it from the mailed link and corrects a name", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const email = (who: string) => `${who}-${stamp}@example.com`;

  // The two places are taken.
  for (const kid of ["Ava", "Bo"]) {
    await fillKid(page, kid, `Kid${stamp}`, email(kid));
    await page.getByRole("button", { name: "Add to cart" }).click();
    await payFromCart(page);
    await page.context().clearCookies();
  }

  // A third: the race is full, and the page offers the waitlist with the answers already given.
  await fillKid(page, "Cal", `Kid${stamp}`, email("cal"));
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("alert")).toHaveText("Kids' 3 km is full. Join the waitlist and we will email you if a place opens.");
  await page.getByLabel("Email address for the waitlist").fill(email("cal"));
  await page.getByRole("button", { name: "Join the waitlist" }).dblclick();
  await expect(page.getByTestId("waitlist-joined")).toHaveText(
    `You are number 1 on the waitlist for Kids' 3 km. We will email ${email("cal")} if a place opens.`,
  );

  // A fourth, in French, is second.
  await page.context().clearCookies();
  await fillKid(page, "Dana", `Kid${stamp}`, email("dana"), "fr");
  await page.getByRole("button", { name: "Ajouter au panier" }).click();
  await page.getByLabel("Adresse courriel pour la liste d'attente").fill(email("dana"));
  await page.getByRole("button", { name: "M'inscrire sur la liste d'attente" }).click();
  await expect(page.getByTestId("waitlist-joined")).toHaveText(
    `Vous êtes numéro 2 sur la liste d'attente pour 3 km jeunesse. Nous écrirons à ${email("dana")} si une place se libère.`,
  );

  // Ava cancels from her receipt mail; the freed place is offered to Cal.
  const receipt = await openMail(page, email("ava"), `Receipt: ${riversideRace.name}`);
  await page.goto((await receipt.getByRole("link").first().getAttribute("href"))!);
  await waitForHydration(page);
  await page.getByText("Cancel this registration").click();
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByTestId("cancelled-notice")).toBeVisible();

  await page.context().clearCookies();
  const offer = await openMail(page, email("cal"), `A place is free: ${riversideRace.name}`);
  await expect(offer).toContainText("A place in Kids' 3 km (Riverside Trail Race 2027) has opened and is held for you until");
  await page.goto((await offer.getByRole("link").first().getAttribute("href"))!);
  await expect(page.getByTestId("place-held")).toContainText("A place is held for you until");
  await expect(page.getByText(`Cal Kid${stamp}`)).toBeVisible();
  await payFromCart(page);

  // On the receipt, the registrant corrects the name. The distance is on the form with the place taken (a paid
  // answer may change for the difference, decision 0061); left as it is, the change costs nothing.
  await page.getByRole("link", { name: "Change these details" }).click();
  const change = page.getByTestId("person-change");
  await expect(change.getByText("A change that costs more is paid by card before it is saved")).toBeVisible();
  await expect(change.getByLabel(/^Distance/).locator("option:checked")).toHaveText(KIDS);
  await change.getByLabel("First name").fill("Callum");
  await change.getByRole("button", { name: "Save the change" }).dblclick();
  await expect(page.getByTestId("changed-notice")).toHaveText("The change is saved.");
  await expect(page.getByRole("row", { name: new RegExp(`Callum Kid${stamp}`) })).toBeVisible();
  await openMail(page, email("cal"), `Registration changed: ${riversideRace.name}`);

  // The organiser's list: Cal took the place, Dana still waits, first in line now.
  await page.context().clearCookies();
  await page.goto(url("localhost", "/login"));
  await signInWithPasswordFrom(page, demoUsers[0].email, demoUsers[0].password);
  await page.goto(url("localhost", `/registration/${riversideRace.id}/admin/waitlist`));
  const list = page.getByTestId("waitlist");
  await expect(list.getByRole("row", { name: new RegExp(`Dana Kid${stamp}`) })).toContainText("Waiting");
  await expect(page.getByRole("row", { name: new RegExp(`Cal Kid${stamp}`) })).toContainText("Took the place");
  // The change the registrant made is in the form's audit trail.
  await page.goto(url("localhost", `/registration/${riversideRace.id}/admin/settings`));
  await expect(page.getByRole("row", { name: new RegExp(`Cal Kid${stamp} → Callum Kid${stamp}`) })).toContainText("Changed details");
});
