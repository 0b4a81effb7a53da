import { expect, test, type Page } from "@playwright/test";
import { demoRegistrations, demoSites, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const SITE = demoSites[0].hostname;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A datetime-local value on the UTC wall clock (the demo club has no time zone, so its forms use UTC). */
const wallClock = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 16);

/** Adds a field from the builder's list and lands in its editor. */
async function addField(page: Page, builder: string, type: string, caption: string) {
  await page.goto(url(SITE, builder));
  await waitForHydration(page);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: type });
  await page.getByLabel("Caption", { exact: true }).fill(caption);
  await page.getByRole("button", { name: "Add field" }).click();
  await expect(page.getByRole("heading", { level: 2, name: `${type}: ${caption}` })).toBeVisible();
  await waitForHydration(page);
}

/** "Add option" posts the editor and comes back with a new row; fills that row. */
async function addOption(page: Page, n: number, shownAs: string, prices: string[] = []) {
  await page.getByRole("button", { name: "Add option" }).click();
  await page.getByLabel(`Option ${n}: shown as`).fill(shownAs);
  for (const [tier, price] of prices.entries()) await page.getByLabel(`Option ${n}: price ${tier + 1} in dollars`).fill(price);
}

async function saveField(page: Page) {
  await page.getByRole("button", { name: "Save field" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
}

test("an organiser builds a form; a registrant registers two people with a code and sees the right total @phone", async ({ browser, page, isMobile }) => {
  test.setTimeout(90_000);
  const coach = demoUsers.find((u) => u.role.type === "org_admin")!;
  const superAdmin = demoUsers.find((u) => u.role.type === "system_admin")!;
  // Named to sort after the seed's "Winter Loppet 2027": sdk-example.spec.ts follows the first form by name.
  const name = `Yukon Test Loppet ${Date.now().toString(36)}`;

  // 1. The club admin creates the form on the club's own site.
  await page.goto(url(SITE, "/club/registrations"));
  await signInWithPasswordFrom(page, coach.email, coach.password);
  await page.waitForURL(url(SITE, "/club/registrations"));
  await waitForHydration(page);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create form" }).click();
  await page.waitForURL(/\/registration\/[0-9a-f-]{36}\/admin\?saved=created$/);
  const builder = new URL(page.url()).pathname;
  const id = builder.split("/")[2]!;
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  // 2. Fields: two mandatory names, a priced option, a taxable checkbox, a conditional option and a code.
  for (const caption of ["First name", "Last name"]) {
    await addField(page, builder, "Text", caption);
    await page.getByLabel("Mandatory", { exact: true }).check();
    await saveField(page);
  }
  await addField(page, builder, "Option (choose one)", "Distance");
  await page.getByLabel("Mandatory", { exact: true }).check();
  await addOption(page, 1, "5 km", ["30.00", "40.00"]);
  await addOption(page, 2, "10 km", ["50.00", "60.00"]);
  await saveField(page);
  await addField(page, builder, "Checkbox", "Toque");
  await page.getByLabel("Price 1", { exact: true }).fill("20.00");
  await page.getByLabel("Taxable", { exact: true }).check();
  await saveField(page);
  await addField(page, builder, "Option (choose one)", "Toque colour");
  await page.getByLabel("Mandatory", { exact: true }).check();
  await page.getByLabel("Depends on").selectOption({ label: "4. Toque (Checkbox)" });
  await page.getByLabel("When its answer").selectOption({ label: "is filled in" });
  await addOption(page, 1, "Red");
  await addOption(page, 2, "Blue");
  await saveField(page);
  await addField(page, builder, "Discount codes", "Discount code");
  await page.getByRole("button", { name: "Add a code" }).click();
  await page.getByLabel("Code 1: code").fill("HALF");
  await page.getByLabel("Code 1: kind").selectOption({ label: "Take off a percentage" });
  await page.getByLabel("Code 1: amount").fill("50");
  await page.getByRole("checkbox", { name: "3. Distance (Option (choose one))" }).check();
  await saveField(page);

  await page.getByRole("link", { name: "Back to the fields" }).click();
  await expect(page.getByRole("row", { name: /Toque colour/ })).toContainText("conditional");
  if (!isMobile) {
    // Rows drag to a new place (a phone uses the Move up and Move down buttons); the order is stored, then put back.
    await waitForHydration(page);
    const captions = page.locator(".element-list tbody th");
    const rows = page.locator(".element-list tbody tr");
    await rows.nth(1).dragTo(rows.nth(0));
    await expect(page.getByText("Moved “Last name” to position 1 of 6.")).toBeAttached();
    await expect(captions.first()).toHaveText("Last name");
    await page.reload();
    await expect(captions.nth(0)).toHaveText("Last name");
    await expect(captions.nth(1)).toHaveText("First name");
    await waitForHydration(page);
    await rows.nth(1).dragTo(rows.nth(0));
    await expect(captions.first()).toHaveText("First name");
    await page.reload();
    await expect(captions.first()).toHaveText("First name");
  }

  // 3. Settings: tier 2 is in force now, open since yesterday, 13% GST.
  await page.getByRole("link", { name: "Settings" }).click();
  await waitForHydration(page);
  const [yesterday, nextMonth] = [wallClock(Date.now() - DAY_MS), wallClock(Date.now() + 30 * DAY_MS)];
  for (const [label, at] of [
    ["Opens", yesterday],
    ["Closes", nextMonth],
    ["Prices rise to tier 2 at", yesterday],
    ["Prices rise to tier 3 at", nextMonth],
  ] as const) {
    await page.getByLabel(label).fill(at);
  }
  await page.getByLabel("GST rate (%)").fill("13");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();

  // 4. Submitted, then approved by a System Administrator on the admin host.
  await page.getByRole("button", { name: "Submit for approval" }).click();
  await expect(page.getByTestId("registration-status")).toHaveText("Pending Approval");
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto(url("admin.localhost", "/_admin/registrations"));
  await signInWithPasswordFrom(admin, superAdmin.email, superAdmin.password);
  await admin.waitForURL(url("admin.localhost", "/_admin/registrations"));
  await admin.getByRole("article", { name }).getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByText("Approved: the form is live.")).toBeVisible();
  await adminContext.close();

  // 5. A registrant, not signed in, registers two people on the club's site.
  const registrantContext = await browser.newContext();
  const registrant = await registrantContext.newPage();
  await registrant.goto(url(SITE, `/register/${id}`));
  await expect(registrant.getByRole("heading", { name: "Who is registering?" })).toBeVisible();
  await waitForHydration(registrant);
  const colour = registrant.getByRole("group", { name: /Toque colour/ });
  await registrant.getByLabel("First name").fill("Ada");
  await registrant.getByLabel("Last name").fill("Lovelace");
  await registrant.getByRole("radio", { name: /^10 km/ }).check();
  await expect(colour).toBeHidden();
  await registrant.getByRole("checkbox", { name: /^Toque/ }).check();
  await expect(colour).toBeVisible();
  await colour.getByRole("radio", { name: "Blue" }).check();
  // The live price, before anything is sent: 60.00 (tier 2) + 20.00, and 13% tax on the toque.
  await registrant.getByText("Price details").click();
  await expect(registrant.getByRole("row", { name: /^Subtotal/ })).toContainText("$80.00");
  await expect(registrant.getByTestId("person-total")).toContainText("This person: $82.60");
  await registrant.getByRole("button", { name: "Add to cart" }).click();
  await expect(registrant.getByRole("heading", { name: /Your cart/ })).toBeVisible();

  await registrant.getByRole("link", { name: "Add another person" }).click();
  await expect(registrant.getByRole("heading", { name: "Person 2" })).toBeVisible();
  await waitForHydration(registrant);
  await registrant.getByLabel("First name").fill("Grace");
  await registrant.getByLabel("Last name").fill("Hopper");
  await registrant.getByRole("radio", { name: /^5 km/ }).check();
  await expect(colour).toBeHidden();
  await registrant.getByRole("button", { name: "Add to cart" }).click();
  await expect(registrant.getByRole("heading", { name: /Your cart/ })).toBeVisible();
  await expect(registrant.getByTestId("cart-person")).toHaveText([/Ada Lovelace/, /Grace Hopper/]);

  // The code, typed in lower case, halves both distances: 120.00 - 50.00 + 2.60 tax, and no system fee.
  await waitForHydration(registrant);
  await registrant.getByLabel("Discount codes").fill("half");
  await registrant.getByRole("button", { name: "Apply" }).click();
  await expect(registrant.getByRole("row", { name: /^Discount HALF/ })).toContainText("-$50.00");
  await expect(registrant.getByRole("row", { name: /^Subtotal/ })).toContainText("$120.00");
  await expect(registrant.getByRole("row", { name: /^Tax \(13%\)/ })).toContainText("$2.60");
  await expect(registrant.getByRole("row", { name: /^Processing fee/ })).toHaveCount(0);
  await expect(registrant.getByRole("row", { name: /^Total/ })).toContainText("$72.60");

  await registrant.getByLabel("Email for the receipt").fill("ada@example.com");
  await registrant.getByRole("button", { name: "Continue to payment" }).click();
  await expect(registrant.getByRole("heading", { name: "Ready to pay" })).toBeVisible();
  await expect(registrant.getByText("Amount due: $72.60")).toBeVisible();
  await registrantContext.close();
});

test("the demo form shows staff its admin-only field with ?admin=1 and its desk field with ?kiosk=1, and registrants neither", async ({ page }) => {
  const form = demoRegistrations(Date.now())[0]!;
  const coach = demoUsers.find((u) => u.role.type === "org_admin")!;
  const formUrl = (query: string) => url(SITE, `/register/${form.id}${query}`);
  // A registrant asking for staff views gets the ordinary form.
  for (const query of ["?admin=1", "?kiosk=1"]) {
    await page.goto(formUrl(query));
    await expect(page.getByLabel("First name")).toBeVisible();
    await expect(page.getByText("Staff note")).toHaveCount(0);
    await expect(page.getByText("Paid at the desk")).toHaveCount(0);
  }
  // Signed in on the club's own site: a staff page there asks for it and comes back.
  await page.goto(url(SITE, `/registration/${form.id}/admin`));
  await signInWithPasswordFrom(page, coach.email, coach.password);
  await page.goto(formUrl("?admin=1"));
  await expect(page.getByLabel("Staff note")).toBeVisible();
  await expect(page.getByText("Paid at the desk")).toHaveCount(0);
  await page.goto(formUrl("?kiosk=1"));
  await expect(page.getByLabel("Paid at the desk")).toBeVisible();
  await expect(page.getByText("Staff note")).toHaveCount(0);
});
