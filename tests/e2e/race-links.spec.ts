import { expect, test, type Page } from "@playwright/test";
import { demoRaces, demoRegistrations, demoSites, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const NORDIC_SITE = demoSites[0].hostname;
const winterLoppet = demoRegistrations(Date.now()).find((r) => r.siteId === demoSites[0].id)!;
const nordicRaces = demoRaces(Date.now()).filter((r) => r.siteId === demoSites[0].id);
const classic = nordicRaces.find((r) => r.name.startsWith("Demo Classic"))!;
const sprint = nordicRaces.find((r) => r.name.startsWith("Demo Sprint"))!;
const settings = url(NORDIC_SITE, `/registration/${winterLoppet.id}/admin/settings`);

async function saveLinks(admin: Page) {
  await admin.getByRole("button", { name: "Save race link" }).click();
  await expect(admin.getByText("Your changes are saved.")).toBeVisible();
  await waitForHydration(admin);
}

/** Adds one person; `distance` is the option's place in the list (1: 10 km, 2: 25 km), whose labels carry prices. */
async function addPerson(page: Page, first: string, last: string, gender: string, distance: number) {
  await waitForHydration(page);
  await page.getByLabel("First name").fill(first);
  await page.getByLabel("Last name").fill(last);
  await page.getByRole("textbox", { name: /^Email/ }).fill(`${first.toLowerCase()}.${last.toLowerCase()}@example.com`);
  await page.getByLabel(/^Date of birth/).fill("1991-04-05");
  await page.getByLabel(/^Gender/).selectOption({ label: gender });
  await page.getByLabel(/^Distance/).selectOption({ index: distance });
  await page.getByRole("checkbox", { name: /I have read and agree: Waiver/ }).check();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("heading", { name: /Your cart/ })).toBeVisible();
}

/** The racer's page of the race, opened from its racers list, once the entry job has run. */
async function openRacer(admin: Page, raceId: string, lastName: string) {
  await expect(async () => {
    await admin.goto(url(NORDIC_SITE, `/race/${raceId}/admin/racers`));
    await expect(admin.getByRole("row").filter({ hasText: lastName })).toHaveCount(1);
  }).toPass({ timeout: 15_000 });
  await expect(admin.getByRole("row").filter({ hasText: lastName })).toContainText("Registration");
  await admin.getByRole("row").filter({ hasText: lastName }).getByRole("link").first().click();
  await expect(admin.getByLabel("Last name", { exact: true })).toHaveValue(lastName);
}

test("an organiser links each distance to its own race; a cheque registration enters each person in their race with the mapped fields", async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const coach = demoUsers.find((u) => u.role.type === "org_admin")!;
  const family = `Links${Date.now().toString(36)}`;
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto(settings);
  await signInWithPasswordFrom(admin, coach.email, coach.password);
  await admin.waitForURL(settings);
  await waitForHydration(admin);

  try {
    // 1. The form's race, then the field whose options choose the race, then each option's race and a mapped field.
    await admin.getByLabel("Race", { exact: true }).selectOption({ label: classic.name });
    await admin.getByLabel("Field that chooses the race").selectOption({ label: "Distance" });
    await saveLinks(admin);
    await admin.getByLabel("Race for 10 km classic").selectOption({ label: classic.name });
    await admin.getByLabel("Race for 25 km classic").selectOption({ label: sprint.name });
    // The racer's sex is found from Gender; the organiser has the distance fill the racer's category.
    await expect(admin.getByLabel("Sex", { exact: true })).toHaveValue(/.+/);
    await admin.getByLabel("Category", { exact: true }).selectOption({ label: "Distance" });
    await saveLinks(admin);
    await expect(admin.getByLabel("Race for 25 km classic")).toHaveValue(sprint.id);
    await expect(admin.getByLabel("Category", { exact: true })).not.toHaveValue("");

    // 2. A registrant registers two people on different distances and pays the club by cheque.
    await page.goto(url(NORDIC_SITE, `/register/${winterLoppet.id}`));
    await addPerson(page, "Rowan", family, "Female", 1);
    await page.getByRole("link", { name: "Add another person" }).click();
    await addPerson(page, "Sasha", family, "Male", 2);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByRole("button", { name: "Register now, pay the club by cash or cheque" }).click();
    await expect(page.getByTestId("receipt-heading")).toHaveText("Registration confirmed: payment due");

    // 3. Each race's racers page lists its own person, with the sex and the mapped category.
    await openRacer(admin, classic.id, `${family}`);
    await expect(admin.getByLabel("First name", { exact: true })).toHaveValue("Rowan");
    await expect(admin.getByLabel("Sex", { exact: true })).toHaveValue("F");
    await expect(admin.getByLabel("Category", { exact: true })).toHaveValue("10 km classic");
    await openRacer(admin, sprint.id, `${family}`);
    await expect(admin.getByLabel("First name", { exact: true })).toHaveValue("Sasha");
    await expect(admin.getByLabel("Sex", { exact: true })).toHaveValue("M");
    await expect(admin.getByLabel("Category", { exact: true })).toHaveValue("25 km classic");
  } finally {
    // The demo form goes back to unlinked, as the seed made it.
    await admin.goto(settings);
    await waitForHydration(admin);
    await admin.getByLabel("Race", { exact: true }).selectOption({ label: "None" });
    await admin.getByLabel("Field that chooses the race").selectOption({ label: "None" });
    if (await admin.getByLabel("Category", { exact: true }).isVisible())
      await admin.getByLabel("Category", { exact: true }).selectOption({ label: "Not filled" });
    await saveLinks(admin);
    await adminContext.close();
  }
});
