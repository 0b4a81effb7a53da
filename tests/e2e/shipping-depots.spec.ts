import { expect, test } from "@playwright/test";
import { demoClubs, demoDepot, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

test("depot staff receive mats, pack a shipment by number from its packing list, ship it and take the rentals back", async ({ page }) => {
  test.setTimeout(90_000);
  const admin = demoUsers.find((u) => u.role.type === "system_admin")!;
  const tag = Date.now().toString(36).toUpperCase();
  const numbers = [`E2E-${tag}-1`, `E2E-${tag}-2`];
  const depotPage = url("localhost", `/shipments/${demoDepot.id}`);

  // 1. Receive two numbered mats and cables for them.
  await page.goto(depotPage);
  await signInWithPasswordFrom(page, admin.email, admin.password);
  await page.waitForURL(depotPage);
  await waitForHydration(page);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Chip timing mat (numbered)" });
  await page.getByLabel("Numbers (numbered types)").fill(numbers.join("\n"));
  await page.getByRole("button", { name: "Receive" }).click();
  await expect(page.getByText("Stock received.")).toBeVisible();
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Mat cable" });
  await page.getByLabel("How many (other types)").fill("4");
  await page.getByRole("button", { name: "Receive" }).click();
  // The notice is already there from the first receipt: wait for the form to come back empty instead.
  await expect(page.getByLabel("How many (other types)")).toHaveValue("");

  // 2. A shipment to a club (a double click makes one), asking for 2 mats: the list adds 4 cables in the mats' crate.
  await page.getByLabel("To", { exact: true }).selectOption({ label: `Club: ${demoClubs[0].name}` });
  await page.getByLabel("Ship by").fill("2026-12-01");
  await page.getByRole("button", { name: "Start the shipment" }).dblclick();
  await expect(page.getByRole("heading", { level: 1, name: `Shipment to ${demoClubs[0].name}` })).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Chip timing mat" });
  await page.getByLabel("How many", { exact: true }).fill("2");
  await page.getByRole("button", { name: "Set" }).click();
  await expect(page.getByText("Pack together: mats")).toBeVisible();
  await expect(page.getByText(/4\s*× Mat cable/)).toBeVisible();
  await expect(page.getByText("Roll the mats, never fold them").first()).toBeVisible();

  // 3. Pack both by number, mark packed, ship.
  for (const number of numbers) {
    await page.getByLabel("Item number").fill(number);
    await page.getByRole("button", { name: "Pack", exact: true }).click();
    await expect(page.getByRole("cell", { name: number, exact: true })).toBeVisible();
  }
  await page.getByRole("button", { name: "Mark packed" }).click();
  await expect(page.getByText("Status: Packed")).toBeVisible();
  await page.getByRole("button", { name: "Ship", exact: true }).click();
  await expect(page.getByText("Status: Shipped")).toBeVisible();

  // 4. Cannot close while rented items are out; one mat back, one missing, the cables counted; then close.
  await page.getByRole("button", { name: "Close the shipment" }).click();
  await expect(page.getByText("3 rented items are still out: mark each back or missing before closing")).toBeVisible();
  await page.getByRole("button", { name: `${numbers[0]} back` }).click();
  await expect(page.getByText("Return recorded.")).toBeVisible();
  await page.getByRole("button", { name: `${numbers[1]} missing` }).click();
  await expect(page.getByRole("row", { name: `${numbers[1]} Chip timing mat missing` })).toBeVisible();
  await page.getByLabel("Back", { exact: true }).fill("4");
  await page.getByLabel("Missing", { exact: true }).fill("0");
  await page.getByRole("button", { name: "Record the return" }).click();
  await expect(page.getByText("Status: Returned")).toBeVisible();
  await page.getByRole("button", { name: "Close the shipment" }).click();
  await expect(page.getByText("Status: Closed")).toBeVisible();

  // 5. The depot lists the missing mat.
  await page.getByRole("link", { name: /Shipments · / }).click();
  await expect(page.getByRole("heading", { name: "Missing items" })).toBeVisible();
  await expect(page.getByText(`Chip timing mat ${numbers[1]}`)).toBeVisible();
});
