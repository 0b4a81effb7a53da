import { expect, test } from "@playwright/test";
import { demoDepot, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";
import { createRaceThroughPages, setUpFinishOnlyRace } from "./race-pages";

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

test("a timer replaces a dead chip by bib from the keypad page, a late entry takes a chip at pickup; the depot sees both issued from its rack, Load chips puts one back, and the shipment marked returned brings its rack back for the other to be checked in", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const admin = demoUsers.find((u) => u.role.type === "system_admin")!;
  const tag = Date.now().toString(36).toUpperCase();
  const hex = (n: number) => `${Date.now().toString(16).slice(-8).toUpperCase()}1${n}`;
  const codes = [1, 2].map(hex);

  // A race of this test's own with two racers (the organiser, who may replace chips as a timer may).
  const race = await createRaceThroughPages(page, "Chip race");
  await setUpFinishOnlyRace(page, race.base, "Chip course", [
    { bib: 1, first: "Ada", chip: "DEAD01" },
    { bib: 2, first: "Bea", chip: "DEAD02" },
  ]);

  // The depot sends a rack of two chips with a shipment to the race.
  const depot = await (await browser.newContext()).newPage();
  await depot.goto(url("localhost", `/shipments/${demoDepot.id}`));
  await signInWithPasswordFrom(depot, admin.email, admin.password);
  await waitForHydration(depot);
  const raceName = (await page.title()).split(" · ").pop()!;
  await depot.getByLabel("To", { exact: true }).selectOption({ label: `Race: ${raceName}` });
  await depot.getByRole("button", { name: "Start the shipment" }).click();
  await expect(depot.getByRole("heading", { level: 1, name: `Shipment to ${raceName}` })).toBeVisible();
  // It ships a roll of bib paper with the rack (a shipment asks for at least one item).
  const shipmentPage = depot.url();
  await waitForHydration(depot);
  await depot.getByLabel("Type", { exact: true }).selectOption({ label: "Bib paper roll" });
  await depot.getByLabel("How many", { exact: true }).fill("1");
  await depot.getByRole("button", { name: "Set" }).click();
  await expect(depot.getByText("1 × Bib paper roll", { exact: true })).toBeVisible();
  await depot.getByRole("button", { name: "Mark packed" }).click();
  await expect(depot.getByText("Status: Packed")).toBeVisible();
  await depot.getByRole("button", { name: "Ship", exact: true }).click();
  await expect(depot.getByText("Status: Shipped")).toBeVisible();
  await depot.goto(url("localhost", `/shipments/${demoDepot.id}/chips`));
  await waitForHydration(depot);
  await depot.getByLabel("Rack number").fill(`LINE-${tag}`);
  await depot.getByLabel("Slots").fill("5");
  await depot.getByRole("button", { name: "Add the rack" }).click();
  await expect(depot.getByText("Rack added.")).toBeVisible();
  await depot.getByRole("link", { name: `Rack LINE-${tag}` }).click();
  await expect(depot.getByRole("heading", { level: 1, name: `Rack LINE-${tag}` })).toBeVisible();
  await waitForHydration(depot);
  await depot.getByLabel("Hex codes").fill(codes.join("\n"));
  await depot.getByRole("button", { name: "Load the chips" }).click();
  await expect(depot.getByText("Chips loaded.")).toBeVisible();
  await depot.getByLabel("Shipped with").selectOption({ label: raceName });
  await depot.getByRole("button", { name: "Save", exact: true }).click();
  await expect(depot.getByText("Your changes are saved.")).toBeVisible();

  // At the line: the keypad page links to "Replace a chip"; bib 2's chip is dead, a double click replaces it once.
  await page.goto(url("localhost", `${race.base}/keypad`));
  await page.getByRole("link", { name: "Replace a chip" }).click();
  await expect(page.getByRole("heading", { name: "Replace a chip" })).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Bib").fill("2");
  await page.getByLabel("New chip (hex code)").fill(codes[1]!.toLowerCase());
  await page.getByLabel("The old chip is").selectOption({ label: "Faulty" });
  await page.getByRole("button", { name: "Replace chip" }).dblclick();
  await expect(page.getByText("Chip replaced: later reads of the new chip are this racer's.")).toBeVisible();
  await expect(page.getByText(`DEAD02 (faulty) → ${codes[1]}`)).toHaveCount(1);
  // A bib no racer wears is refused in words.
  await page.getByLabel("Bib").fill("77");
  await page.getByLabel("New chip (hex code)").fill(codes[0]!);
  await page.getByRole("button", { name: "Replace chip" }).click();
  await expect(page.getByText("No racer has bib 77 in this race")).toBeVisible();

  // At bib pickup: a late entry takes the rack's other chip on the racer form; a double click adds them once.
  await page.goto(url("localhost", `${race.base}/racers/new`));
  await waitForHydration(page);
  await page.getByLabel("First name").fill("Cy");
  await page.getByLabel("Last name").fill("Racer");
  await page.getByLabel("Bib").fill("3");
  await page.getByLabel("Chip", { exact: true }).fill(codes[0]!.toLowerCase());
  await page.getByRole("button", { name: "Add racer" }).dblclick();
  await expect(page.getByText("Racer added.")).toBeVisible();
  await expect(page.getByLabel("Chip", { exact: true })).toHaveValue(codes[0]!);
  await page.goto(url("localhost", `${race.base}/racers`));
  await expect(page.getByRole("link", { name: /Cy/ })).toHaveCount(1);

  // The depot's books: both slots are empty, one chip issued to bib 2 at the line and one to bib 3 at pickup.
  await depot.reload();
  await expect(depot.getByRole("row", { name: "2 Empty" })).toBeVisible();
  await expect(depot.getByRole("row", { name: `${codes[1]} Issued at the race ${raceName} 2` })).toBeVisible();
  await expect(depot.getByRole("row", { name: `${codes[0]} Issued at the race ${raceName} 3` })).toBeVisible();
  // Back from the race, Load chips puts it in its rack again and it is no longer issued.
  await depot.getByLabel("From slot").fill("2");
  await depot.getByLabel("Hex codes").fill(codes[1]!);
  await depot.getByRole("button", { name: "Load the chips" }).click();
  await expect(depot.getByText("Chips loaded.")).toBeVisible();
  await expect(depot.getByRole("row", { name: `2 ${codes[1]} Untested 0` })).toBeVisible();
  await expect(depot.getByRole("row", { name: new RegExp(`${codes[1]} Issued`) })).toHaveCount(0);

  // The shipment comes back (a double click marks it once): its rack is at the depot by itself, and the chip still
  // with bib 3 is listed on the return until it is checked in to a slot of its rack.
  await depot.goto(shipmentPage);
  await waitForHydration(depot);
  await depot.getByRole("button", { name: "Mark returned" }).dblclick();
  await expect(depot.getByText("Status: Returned")).toBeVisible();
  await expect(depot.getByRole("row", { name: `${codes[0]} Not returned ${raceName} 3` })).toBeVisible();
  await depot.getByRole("link", { name: "GoChips page" }).click();
  await waitForHydration(depot);
  await expect(depot.getByRole("row", { name: `Rack LINE-${tag} 1 of 5 At the depot` })).toBeVisible();
  await depot.getByLabel("Hex code of a chip that came back").fill(codes[0]!.toLowerCase());
  await depot.getByLabel("Into rack").selectOption({ label: `Rack LINE-${tag}` });
  await depot.locator("#checkin-slot").fill("1");
  await depot.getByRole("button", { name: "Check in" }).dblclick();
  await expect(depot.getByText("Chip checked in.")).toBeVisible();
  await expect(depot.getByRole("row", { name: new RegExp(`${codes[0]} (Issued|Not returned)`) })).toHaveCount(0);
  await expect(depot.getByRole("row", { name: `Rack LINE-${tag} 2 of 5 At the depot` })).toBeVisible();
});
