import { expect, test } from "@playwright/test";
import { demoDepot, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

test("depot staff add a rack (once on a double click), load chips, upload two Activator tests and see a chip turn faulty", async ({ page }) => {
  test.setTimeout(90_000);
  const admin = demoUsers.find((u) => u.role.type === "system_admin")!;
  const tag = Date.now().toString(36).toUpperCase();
  // Hex codes of this run only: the demo depot keeps earlier runs' chips.
  const hex = (n: number) => `${Date.now().toString(16).slice(-8).toUpperCase()}0${n}`;
  const codes = [1, 2, 3].map(hex);
  const chipsPage = url("localhost", `/shipments/${demoDepot.id}/chips`);

  await page.goto(url("localhost", `/shipments/${demoDepot.id}`));
  await signInWithPasswordFrom(page, admin.email, admin.password);
  await page.getByRole("link", { name: "GoChips: racks, lots and tests" }).click();
  await expect(page).toHaveURL(chipsPage);
  await waitForHydration(page);

  // 1. A rack of 10 slots; a double click adds it once.
  await page.getByLabel("Rack number").fill(`E2E-${tag}`);
  await page.getByLabel("Slots").fill("10");
  await page.getByRole("button", { name: "Add the rack" }).dblclick();
  await expect(page.getByText("Rack added.")).toBeVisible();
  await expect(page.getByRole("link", { name: `Rack E2E-${tag}` })).toHaveCount(1);

  // 2. Three chips scanned into slots 1–3.
  await page.getByRole("link", { name: `Rack E2E-${tag}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Rack E2E-${tag}` })).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Hex codes").fill(codes.map((c) => c.toLowerCase()).join("\n"));
  await page.getByRole("button", { name: "Load the chips" }).click();
  await expect(page.getByText("Chips loaded.")).toBeVisible();
  await expect(page.getByRole("row", { name: `2 ${codes[1]} Untested 0` })).toBeVisible();

  // 3. The Activator's CSV: the third chip does not answer; then a typed test where it fails again.
  await page.getByRole("link", { name: /GoChips/ }).click();
  await waitForHydration(page);
  await page.getByLabel("Rack tested").selectOption({ label: `Rack E2E-${tag}` });
  await page.getByLabel("GoChip Activator").fill("Activator 1");
  await page.getByLabel("The Activator's CSV of the hex codes that answered").setInputFiles({
    name: "activator.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`Hex Code\r\n${codes[0]}\r\n${codes[1]}\r\n`),
  });
  await page.getByRole("button", { name: "Record the test" }).click();
  await expect(page.getByText("Test recorded.")).toBeVisible();
  await expect(page.getByRole("cell", { name: codes[2], exact: true })).toBeVisible();
  await page.getByLabel("Rack tested").selectOption({ label: `Rack E2E-${tag}` });
  await page.getByLabel("Or the hex codes that answered").fill(`${codes[0]}\n${codes[1]}`);
  await page.getByRole("button", { name: "Record the test" }).click();
  await expect(page.getByText(`${codes[2]}: Faulty (rack E2E-${tag}, slot 3)`)).toBeVisible();

  // 4. A line that is no hex code is refused in words, and nothing is recorded.
  await page.getByLabel("Rack tested").selectOption({ label: `Rack E2E-${tag}` });
  await page.getByLabel("Or the hex codes that answered").fill(`${codes[0]}\nnot a chip`);
  await page.getByRole("button", { name: "Record the test" }).click();
  await expect(page.getByText("These lines are not hex codes: 2")).toBeVisible();
});
