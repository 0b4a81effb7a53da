import { expect, test } from "@playwright/test";
import { demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, signUpWithLink, url, waitForHydration } from "./hosts";

const ADMIN = "admin.localhost";

test("a club's licence list refuses a registrant whose number is not on it", async ({ page, browser }) => {
  test.setTimeout(150_000);
  const tag = Date.now().toString(36);
  const clubName = `Licence Club ${tag}`;
  const systemName = `Licences ${tag}`;

  // A founder starts a club and a form with a licence number field.
  await signUpWithLink(page, `licence-${tag}@example.com`, "Lee Licence");
  await page.getByRole("link", { name: "Start a club" }).click();
  await page.getByLabel("Club name").fill(clubName);
  await page.getByLabel("Sport").selectOption("Triathlon");
  await page.getByLabel("Country").selectOption("CA");
  await page.getByLabel("Site address").fill(`licence-${tag}`);
  await page.getByRole("button", { name: "Start the club" }).click();
  await page.waitForURL(/\/club\/[0-9a-f-]{36}\/overview$/);
  await page.getByRole("link", { name: "Getting started: create your first registration form" }).click();
  await page.getByLabel("Name", { exact: true }).fill(`Licence Sprint ${tag}`);
  await page.getByRole("button", { name: "Create form" }).click();
  await page.waitForURL(/\/registration\/[0-9a-f-]{36}\/admin\?saved=created$/);
  const formId = new URL(page.url()).pathname.split("/")[2]!;
  await waitForHydration(page);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Text" });
  await page.getByLabel("Caption", { exact: true }).fill("Licence number");
  await page.getByRole("button", { name: "Add field" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Text: Licence number" })).toBeVisible();
  const editor = page.url();

  // A System Administrator makes the club's list system and uploads its CSV.
  const superAdmin = demoUsers.find((u) => u.role.type === "system_admin")!;
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto(url(ADMIN, "/_admin/validation/new"));
  await signInWithPasswordFrom(admin, superAdmin.email, superAdmin.password);
  await admin.waitForURL(url(ADMIN, "/_admin/validation/new"));
  await admin.getByLabel("Club").selectOption({ label: clubName });
  await admin.getByLabel("Name", { exact: true }).fill(systemName);
  await admin.getByLabel("Kind").selectOption("list");
  await admin.getByRole("button", { name: /^Create/ }).click();
  await expect(admin.getByText("Created.")).toBeVisible();
  await admin.getByRole("link", { name: "Valid numbers: upload a list or check a number" }).click();
  await expect(admin.getByText("No list uploaded yet")).toBeVisible();
  await admin.getByLabel("CSV file").setInputFiles({ name: "members.csv", mimeType: "text/csv", buffer: Buffer.from("Name,Licence\nAda,AB-77\nBo,123\n") });
  await admin.getByLabel("Column").fill("Licence");
  await admin.getByRole("button", { name: "Upload and replace the list" }).click();
  await expect(admin.getByText("The list is replaced.")).toBeVisible();
  await expect(admin.getByText(/^2 numbers from members\.csv \(column Licence\)/)).toBeVisible();
  await admin.getByLabel("Number", { exact: true }).fill("ab 77");
  await admin.getByRole("button", { name: "Check" }).click();
  await expect(admin.getByText("ab 77 is on the list.")).toBeVisible();

  // The founder has the field use it and submits the form; the administrator approves it.
  await page.goto(editor);
  await page.getByLabel("Validation system").selectOption({ label: `${systemName} (list)` });
  await page.getByRole("button", { name: "Save field" }).click();
  await expect(page.getByLabel("Validation system")).toHaveValue(/[0-9a-f-]{36}/);
  await page.getByRole("link", { name: "Back to the fields" }).click();
  await page.getByRole("button", { name: "Submit for approval" }).click();
  await expect(page.getByTestId("registration-status")).toHaveText("Pending Approval");
  await admin.goto(url(ADMIN, "/_admin/registrations"));
  await admin
    .getByRole("article", { name: `Licence Sprint ${tag}` })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(admin.getByText("Approved: the form is live.")).toBeVisible();
  await adminContext.close();

  // A registrant's number not on the list is refused beside the field; the same number written otherwise is taken.
  const registrant = await (await browser.newContext()).newPage();
  await registrant.goto(url(`licence-${tag}.localhost`, `/register/${formId}`));
  await registrant.getByLabel("Licence number").fill("999");
  await registrant.getByRole("button", { name: "Add to cart" }).click();
  await expect(registrant.getByText("This licence number is not on the club's list")).toBeVisible();
  await registrant.getByLabel("Licence number").fill("ab-77");
  await registrant.getByRole("button", { name: "Add to cart" }).click();
  await expect(registrant.getByRole("heading", { name: /Your cart/ })).toBeVisible();
});
