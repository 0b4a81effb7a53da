import { expect, test } from "@playwright/test";
import { demoRaces, demoRegistrations, demoSites, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const NORDIC_SITE = demoSites[0].hostname;
const winterLoppet = demoRegistrations(Date.now()).find((r) => r.siteId === demoSites[0].id)!;
const demoRace = demoRaces(Date.now()).find((r) => r.siteId === demoSites[0].id)!;

test("an organiser links the form to the race; a registrant's cheque registration puts them on the race's racers with a bib", async ({ browser, page }) => {
  test.setTimeout(90_000);
  const coach = demoUsers.find((u) => u.role.type === "org_admin")!;
  const lastName = `Racer${Date.now().toString(36)}`;

  // 1. The club admin links Winter Loppet to the demo race in the form's settings.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto(url(NORDIC_SITE, `/registration/${winterLoppet.id}/admin/settings`));
  await signInWithPasswordFrom(admin, coach.email, coach.password);
  await admin.waitForURL(url(NORDIC_SITE, `/registration/${winterLoppet.id}/admin/settings`));
  await waitForHydration(admin);
  await admin.getByLabel("Race", { exact: true }).selectOption({ label: demoRace.name });
  await admin.getByRole("button", { name: "Save race link" }).click();
  await expect(admin.getByText("Your changes are saved.")).toBeVisible();
  await expect(admin.getByLabel("Course", { exact: true })).toBeVisible();

  try {
    // 2. A registrant registers one person and pays the club by cheque.
    await page.goto(url(NORDIC_SITE, `/register/${winterLoppet.id}`));
    await waitForHydration(page);
    await page.getByLabel("First name").fill("Rowan");
    await page.getByLabel("Last name").fill(lastName);
    await page.getByRole("textbox", { name: /^Email/ }).fill(`${lastName.toLowerCase()}@example.com`);
    await page.getByLabel(/^Date of birth/).fill("1991-04-05");
    await page.getByLabel(/^Distance/).selectOption({ index: 1 });
    await page.getByRole("checkbox", { name: /I have read and agree: Waiver/ }).check();
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByRole("heading", { name: /Your cart/ })).toBeVisible();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByRole("button", { name: "Register now, pay the club by cash or cheque" }).click();
    await expect(page.getByTestId("receipt-heading")).toHaveText("Registration confirmed: payment due");

    // 3. The race's racers page lists them, with a bib, as having come from the registration.
    await expect(async () => {
      await admin.goto(url(NORDIC_SITE, `/race/${demoRace.id}/admin/racers`));
      await expect(admin.getByRole("row").filter({ hasText: lastName })).toHaveCount(1);
    }).toPass({ timeout: 15_000 });
    // Its first cell is the bib: the next free number of the race.
    await expect(admin.getByRole("row").filter({ hasText: lastName }).getByRole("cell").first()).toHaveText(/^\d+$/);
    await expect(admin.getByRole("row").filter({ hasText: lastName })).toContainText("Registration");
  } finally {
    // The demo form goes back to unlinked, as the seed made it.
    await admin.goto(url(NORDIC_SITE, `/registration/${winterLoppet.id}/admin/settings`));
    await waitForHydration(admin);
    await admin.getByLabel("Race", { exact: true }).selectOption({ label: "None" });
    await admin.getByRole("button", { name: "Save race link" }).click();
    await expect(admin.getByText("Your changes are saved.")).toBeVisible();
    await adminContext.close();
  }
});
