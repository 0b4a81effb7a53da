import { expect, test } from "@playwright/test";
import { demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, signUpWithLink, url, waitForHydration } from "./hosts";

const MAIN = "localhost";

test("a new user starts a club and takes a registration on the club's new site", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const tag = Date.now().toString(36);
  const email = `founder-${tag}@example.com`;
  const clubName = `Tundra Tri ${tag}`;
  const formName = `Tundra Sprint ${tag}`;

  await signUpWithLink(page, email, "Frankie Founder");

  // Start the club: its own site comes with it, and the overview says what to do first.
  await page.getByRole("link", { name: "Start a club" }).click();
  await page.getByLabel("Club name").fill(clubName);
  await page.getByLabel("Sport").selectOption("Triathlon");
  await page.getByLabel("Country").selectOption("CA");
  await page.getByLabel("Site address").fill(`tundra-${tag}`);
  await page.getByRole("button", { name: "Start the club" }).click();
  await page.waitForURL(/\/club\/[0-9a-f-]{36}\/overview$/);
  await expect(page.getByRole("link", { name: "Getting started: add a bank account so payouts can reach the club" })).toBeVisible();
  await page.getByRole("link", { name: "Getting started: create your first registration form" }).click();

  // The first form, one field, submitted for approval.
  await page.getByLabel("Name", { exact: true }).fill(formName);
  await page.getByRole("button", { name: "Create form" }).click();
  await page.waitForURL(/\/registration\/[0-9a-f-]{36}\/admin\?saved=created$/);
  const id = new URL(page.url()).pathname.split("/")[2]!;
  await waitForHydration(page);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Text" });
  await page.getByLabel("Caption", { exact: true }).fill("Team name");
  await page.getByRole("button", { name: "Add field" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Text: Team name" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the fields" }).click();
  await page.getByRole("button", { name: "Submit for approval" }).click();
  await expect(page.getByTestId("registration-status")).toHaveText("Pending Approval");

  // A System Administrator approves it.
  const superAdmin = demoUsers.find((u) => u.role.type === "system_admin")!;
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto(url("admin.localhost", "/_admin/registrations"));
  await signInWithPasswordFrom(admin, superAdmin.email, superAdmin.password);
  await admin.waitForURL(url("admin.localhost", "/_admin/registrations"));
  await admin.getByRole("article", { name: formName }).getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByText("Approved: the form is live.")).toBeVisible();
  await adminContext.close();

  // Someone registers on the club's new site, without an account.
  const site = `tundra-${tag}.localhost`;
  const registrantContext = await browser.newContext();
  const registrant = await registrantContext.newPage();
  await registrant.goto(url(site, `/register/${id}`));
  await expect(registrant.locator(".site-header")).toContainText(clubName);
  await registrant.getByLabel("Team name").fill("Polar Bears");
  await registrant.getByRole("button", { name: "Add to cart" }).click();
  await expect(registrant.getByRole("heading", { name: /Your cart/ })).toBeVisible();
  await registrant.getByLabel("Email for the receipt").fill(`polar-${tag}@example.com`);
  await registrant.getByRole("button", { name: "Continue to payment" }).click();
  await registrant.getByRole("button", { name: "Complete registration" }).click();
  await registrant.waitForURL(/\/register\/[0-9a-f-]{36}\/(done|receipt)/);
  await registrantContext.close();

  // The founder sees the registration in the club's forms and the form's status is live.
  await page.goto(url(MAIN, `/registration/${id}/admin`));
  await expect(page.getByTestId("registration-status")).toHaveText("Live Mode");
});
