import { expect, test } from "@playwright/test";
import { send } from "../../bench/http";
import { E2E_PORT } from "../../playwright.config";
import { demoClubs, demoRaces, demoRankingScheme, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

/**
 * The Nordic club's Organization Admin opens the demo ranking list (the sprint qualifier's results scored by
 * the FIS method), then seeds the sprint's start group by it: the start order shows the points used (issue
 * 27, decision 0054).
 */
test("an organiser opens the ranking list and seeds a start group by it", async ({ page }) => {
  test.setTimeout(90_000);
  const sprint = await send(E2E_PORT, "localhost", "POST", "/_dev/demo-sprint", "{}", { "Content-Type": "application/json" });
  expect(sprint.status).toBe(200);
  const coach = demoUsers.find((u) => u.role.type === "org_admin")!;
  const sprintRace = demoRaces(Date.now()).find((r) => r.name.startsWith("Demo Sprint"))!;

  await page.goto(url("localhost", `/club/${demoClubs[0].id}/rankings`));
  await signInWithPasswordFrom(page, coach.email, coach.password);
  await page.waitForURL(url("localhost", `/club/${demoClubs[0].id}/rankings`));
  await page.getByRole("link", { name: demoRankingScheme.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: demoRankingScheme.name })).toBeVisible();
  const list = page.getByTestId("ranking-list");
  await expect(list.getByRole("columnheader", { name: "Demo Sprint (heats)" })).toBeVisible();
  // The qualifier's winner leads; lower points are better.
  await expect(list.getByRole("row").nth(1).getByRole("cell").first()).toHaveText("1");
  const leader = (await list.getByRole("row").nth(1).getByRole("rowheader").textContent())!.trim();
  await expect(page.getByRole("link", { name: "Download CSV" })).toBeVisible();

  // The sprint's start order: the race reads this scheme, its start group seeds by ranking points.
  await page.goto(url("localhost", `/race/${sprintRace.id}/admin/startorder`));
  await waitForHydration(page);
  await page.getByRole("combobox", { name: "Ranking scheme" }).selectOption({ label: demoRankingScheme.name });
  await page.getByRole("button", { name: "Save race settings" }).click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
  await page.getByRole("combobox", { name: "Seed function" }).nth(1).selectOption({ label: "By ranking points (scheme)" });
  await page.getByRole("button", { name: "Save group settings" }).first().click();
  await expect(page.getByText("Your changes are saved.")).toBeVisible();
  await expect(page.getByText(/racers? · By ranking points \(scheme\) ·/)).toBeVisible();
  await page
    .getByRole("link", { name: /^Seed / })
    .first()
    .click();
  await page.getByRole("button", { name: "Seed racers" }).click();
  await expect(page.getByTestId("startorder-status")).toHaveText(/^Seeded \d+ racers? in 1 start group/);
  const preview = page.getByRole("table").first();
  await expect(preview.getByRole("columnheader", { name: "Ranking points" })).toBeVisible();
  await expect(
    preview
      .getByRole("row", { name: new RegExp(leader) })
      .getByRole("cell")
      .last(),
  ).toHaveText(/^\d+\.\d\d$/);
});
