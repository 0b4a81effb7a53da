import { expect, test } from "@playwright/test";
import { demoClubs, demoRegistrations, demoSites, demoUsers } from "../../scripts/demo-data";
import { openMail, signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const NORDIC_SITE = demoSites[0].hostname;
const winterLoppet = demoRegistrations(Date.now()).find((r) => r.siteId === demoSites[0].id)!;

test("a club admin writes a newsletter, sends it to everyone registered on a form, and a reader unsubscribes from its link", async ({ browser, page }) => {
  test.setTimeout(90_000);
  const coach = demoUsers.find((u) => u.role.type === "org_admin")!;
  const reader = `reader${Date.now().toString(36)}@example.com`;
  const subject = `Loppet news ${Date.now().toString(36)}`;

  // 1. Someone registers on the club's form (by cheque), so the form has a reader.
  await page.goto(url(NORDIC_SITE, `/register/${winterLoppet.id}`));
  await waitForHydration(page);
  await page.getByLabel("First name").fill("Noor");
  await page.getByLabel("Last name").fill("Reader");
  await page.getByRole("textbox", { name: /^Email/ }).fill(reader);
  await page.getByLabel(/^Date of birth/).fill("1990-02-03");
  await page.getByLabel(/^Distance/).selectOption({ index: 1 });
  await page.getByRole("checkbox", { name: /I have read and agree: Waiver/ }).check();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByRole("button", { name: "Register now, pay the club by cash or cheque" }).click();
  await expect(page.getByTestId("receipt-heading")).toHaveText("Registration confirmed: payment due");

  // 2. The club admin starts a newsletter, adds a text block and a button, and sends it now to the form's people.
  const context = await browser.newContext();
  const admin = await context.newPage();
  await admin.goto(url("localhost", `/club/${demoClubs[0].id}/newsletters`));
  await signInWithPasswordFrom(admin, coach.email, coach.password);
  await admin.waitForURL(url("localhost", `/club/${demoClubs[0].id}/newsletters`));
  await waitForHydration(admin);
  await admin.getByLabel("Subject").fill(subject);
  await admin.getByRole("button", { name: "Start the newsletter" }).dblclick();
  await expect(admin.getByRole("heading", { level: 1, name: subject })).toBeVisible();
  await admin.getByRole("button", { name: "Text", exact: true }).click();
  await admin.getByLabel("Text", { exact: true }).fill("Waxing clinic on Thursday.\n\nBring your skis.");
  await admin.getByRole("button", { name: "Action button", exact: true }).click();
  await admin.getByLabel("Button text").fill("See the start list");
  await admin.getByLabel("Link (https://…)").fill("https://example.org/start-list");
  await admin.getByLabel(`Everyone registered on ${winterLoppet.name}`).check();
  await admin.getByRole("button", { name: "Save and send now" }).click();
  await expect(admin.getByText("Sending: the newsletter is on its way to its readers.")).toBeVisible();
  await expect(admin.getByText("This newsletter has been sent and can no longer be changed.")).toBeVisible();

  // 3. The reader gets it once, through the mail queue, with its blocks and a link to unsubscribe.
  const mail = await openMail(page, reader, subject);
  await expect(mail).toContainText("Waxing clinic on Thursday.");
  await expect(mail).toContainText("See the start list: https://example.org/start-list");
  await expect(page.getByRole("article", { name: subject }).filter({ hasText: `To ${reader}` })).toHaveCount(1);
  const unsubscribe = /Unsubscribe: (\S+)/.exec((await mail.textContent()) ?? "")![1]!;
  await page.goto(unsubscribe);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("status")).toHaveText(`${reader} will receive no more newsletters from ${demoClubs[0].name}.`);

  // 4. The list says where it stands.
  await expect(async () => {
    await admin.goto(url("localhost", `/club/${demoClubs[0].id}/newsletters`));
    await expect(admin.getByRole("row").filter({ hasText: subject })).toContainText(/Sent .* to \d+ (person|people)/);
  }).toPass({ timeout: 15_000 });
  await context.close();
});
