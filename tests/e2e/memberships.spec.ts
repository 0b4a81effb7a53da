import { expect, test } from "@playwright/test";
import { demoClubs, demoUsers } from "../../scripts/demo-data";
import { openMail, signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test("a division admin adds and corrects a member, sees the history, and the cron's renewal reminder reaches the member", async ({ page }) => {
  test.setTimeout(90_000);
  const coach = demoUsers.find((u) => u.role.type === "org_admin")!;
  const club = demoClubs[0].id;
  const tag = Date.now().toString(36);
  const email = `lena-${tag}@example.com`;

  // 1. The club's membership page: a division of this test's own (made on a first run, beside the seed's "Nordic
  // Demo Members", whose season is this year's and would overlap) and a season that ends in ten days.
  await page.goto(url("localhost", `/org/${club}/home`));
  await signInWithPasswordFrom(page, coach.email, coach.password);
  await waitForHydration(page);
  if (!(await page.getByRole("link", { name: "Club members", exact: true }).count())) {
    // With one division the club's page opens it, so the second is made as the club page's form would post it.
    const made = await page.request.post(url("localhost", `/org/${club}/home`), {
      form: { intent: "division", name: "Club members" },
      headers: { Origin: url("localhost", "").replace(/\/$/, "") },
      maxRedirects: 0,
    });
    expect(made.status()).toBe(302);
    await page.goto(url("localhost", `/org/${club}/home`));
  }
  await page.getByRole("link", { name: "Club members", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Membership Reports · Club members" })).toBeVisible();
  const divisionHome = page.url();
  const seasons = page.getByLabel("Season", { exact: true }).first();
  if (!(await page.getByRole("option", { name: /^Ending soon/ }).count())) {
    await page.getByLabel("Season name").fill("Ending soon");
    await page.getByLabel("First day").fill(day(-300));
    await page.getByLabel("Last day").fill(day(10));
    await page.getByRole("button", { name: "Add the season" }).click();
    await expect(page.getByText("Added.")).toBeVisible();
  }
  await expect(seasons).toBeVisible();

  // 2. A member added by hand (a double click adds one) opens on their own page.
  await waitForHydration(page);
  const add = page.locator("form").filter({ has: page.getByRole("button", { name: "Add the member" }) });
  await add.getByLabel("First name").fill("Lena");
  await add.getByLabel("Last name").fill(`Hand ${tag}`);
  await add.getByLabel("Birth date").fill("2012-05-06");
  await add.getByLabel("E-mail").fill(email);
  await add.getByLabel("Season").selectOption({ label: `Ending soon (${day(-300)} to ${day(10)})` });
  await add.getByLabel("Member class").selectOption("racing");
  await add.getByRole("button", { name: "Add the member" }).dblclick();
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(`Member \\d+ · Lena Hand ${tag}`) })).toBeVisible();
  await expect(page.getByText("Added.")).toBeVisible();

  // 3. A correction of the name is saved and shows in the history with the value before and after.
  await waitForHydration(page);
  await page.getByLabel("First name").fill("Léna");
  await page.getByRole("button", { name: "Save the person" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
  const change = page.getByRole("row").filter({ hasText: "changed (person)" }).filter({ hasText: "first_name" });
  await expect(change).toContainText("Lena");
  await expect(change).toContainText("Léna");
  await expect(page.getByRole("row").filter({ hasText: "created (membership)" })).toHaveCount(1);

  // 4. The five-minute cron sends the renewal reminder through the mail queue; the division page lists it.
  const ran = await page.request.post(url("localhost", "/_dev/cron"), { data: { cron: "*/5 * * * *" } });
  expect(ran.status()).toBe(200);
  // The club's first division may be another test's (the state is shared), so the subject is matched without its name.
  const mail = await openMail(page, email, "membership ends soon");
  await expect(mail).toContainText("Hello Léna,");
  await expect(mail).toContainText(`ends on`);
  await page.goto(divisionHome);
  await expect(page.getByRole("table", { name: "Reminded" }).getByRole("row").filter({ hasText: email })).toContainText("Sent");
});
