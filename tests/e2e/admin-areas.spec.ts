import { expect, test, type Page } from "@playwright/test";
import { demoClubs, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const ADMIN = "admin.localhost";
const superAdmin = demoUsers.find((u) => u.role.type === "system_admin")!;

/** The history table's row for one changed field: its before and after cells. */
function historyRow(page: Page, field: string) {
  return page
    .getByRole("table")
    .last()
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: field, exact: true }) })
    .first();
}

test.describe("the administration areas", () => {
  test("a System Administrator edits objects in three areas and reads each one's history", async ({ page }) => {
    const tag = Date.now().toString(36);
    await page.goto(url(ADMIN, "/_admin/clubs"));
    await signInWithPasswordFrom(page, superAdmin.email, superAdmin.password);
    await expect(page).toHaveURL(url(ADMIN, "/_admin/clubs"));
    await waitForHydration(page);

    // Organizations: find the second demo club by search and change its description.
    await page.getByLabel("Search").fill(demoClubs[1].name.split(" ")[0]!);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: demoClubs[1].name }).click();
    await page.getByLabel("Info").fill(`Trail running every Sunday (${tag})`);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await expect(historyRow(page, "info")).toContainText(`Trail running every Sunday (${tag})`);

    // Membership System: create a division of the demo club, refused first for a bad country, then rename it.
    await page.goto(url(ADMIN, "/_admin/divisions"));
    await page.getByRole("link", { name: "New Division" }).click();
    await page.getByLabel("Club").selectOption({ label: demoClubs[0].name });
    await page.getByLabel("Name", { exact: true }).fill(`Juniors ${tag}`);
    await page.getByLabel("Country").fill("Canada");
    await page.getByRole("button", { name: "Create Division" }).click();
    await expect(page.getByText("country is a two-letter code")).toBeVisible();
    await page.getByLabel("Country").fill("CA");
    await page.getByRole("button", { name: "Create Division" }).click();
    await expect(page.getByText("Created.")).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill(`Juniors U16 ${tag}`);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Juniors U16 ${tag}` })).toBeVisible();
    const renamed = historyRow(page, "name");
    await expect(renamed.getByRole("cell").nth(4)).toHaveText(`Juniors ${tag}`);
    await expect(renamed.getByRole("cell").nth(5)).toHaveText(`Juniors U16 ${tag}`);
    await expect(renamed).toContainText(superAdmin.name);

    // Shipping Depots: a depot made and deactivated, then deleted after a confirmation.
    await page.goto(url(ADMIN, "/_admin/depots/new"));
    await page.getByLabel("Name", { exact: true }).fill(`Ottawa depot ${tag}`);
    await page.getByRole("button", { name: "Create ShippingDepot" }).click();
    await expect(page.getByText("Created.")).toBeVisible();
    await page.getByLabel("Is active").uncheck();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await expect(historyRow(page, "is_active").getByRole("cell").nth(5)).toHaveText("false");
    await page.getByRole("link", { name: "Delete…" }).click();
    await expect(page.getByRole("heading", { name: "Delete this ShippingDepot?" })).toBeVisible();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(page.getByText("ShippingDepot deleted.")).toBeVisible();
    await page.getByLabel("Search").fill(`Ottawa depot ${tag}`);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("No ShippingDepot found")).toBeVisible();
  });
});
