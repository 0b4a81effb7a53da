import { expect, test, type Locator, type Page } from "@playwright/test";
import { send } from "../../bench/http";
import { E2E_PORT } from "../../playwright.config";
import { demoSites, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const MAIN = "localhost";

/** The bibs seated in a heat card, top to bottom. */
async function bibsIn(card: Locator): Promise<string[]> {
  return (await card.locator("tbody tr td:nth-child(2)").allTextContents()).map((t) => t.trim());
}

/** A timer enters a heat's finish order on the heat page and waits for the saved page. */
async function enterHeat(page: Page, canonical: string, name: string, order: string) {
  const card = page.locator(`[data-heat="${canonical}"]`);
  const heading = await card.getAttribute("aria-labelledby");
  await card.getByLabel(`Finish order of ${name} (bibs)`).fill(order);
  await card.getByRole("button", { name: "Save result" }).click();
  // The saved page comes back at this heat; the live socket may mark it done a moment before.
  await page.waitForURL((u) => u.hash === `#${heading}`);
  await expect(page.getByText("Heat result saved.")).toBeVisible();
  await expect(page.locator(`[data-heat="${canonical}"]`)).toHaveClass(/heat-done/);
}

test("a timer runs a 30-racer sprint from qualifier to final, and a spectator's bracket fills in live", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const reply = await send(E2E_PORT, MAIN, "POST", "/_dev/demo-sprint", JSON.stringify({ restart: true }), { "Content-Type": "application/json" });
  expect(reply.status).toBe(200);
  const { raceId } = JSON.parse(reply.body) as { raceId: string };

  // A spectator on the club's site, before any heat exists.
  const spectatorContext = await browser.newContext();
  const spectator = await spectatorContext.newPage();
  await spectator.goto(url(demoSites[0].hostname, `/races/${raceId}/heats`));
  await waitForHydration(spectator);
  await expect(spectator.locator("[data-live-state]")).toHaveAttribute("data-live-state", "live");
  await expect(spectator.getByText("No heats yet.")).toBeVisible();
  await spectator.evaluate(() => ((window as unknown as { stillSamePage: boolean }).stillSamePage = true));

  // The timer seeds the heats from the qualifier.
  const coach = demoUsers[1];
  await page.goto(url(MAIN, "/login"));
  await signInWithPasswordFrom(page, coach.email, coach.password);
  await page.waitForURL(url(MAIN, "/manage"));
  await page.goto(url(MAIN, `/race/${raceId}/admin/heats`));
  await page.getByRole("link", { name: "Seed heats of “Open sprint” from the qualifier…" }).click();
  await page.getByRole("button", { name: "Seed heats" }).click();
  await expect(page.getByText("Heats seeded from the qualifier.")).toBeVisible();
  await waitForHydration(page);

  // The spectator sees five quarterfinals of six, the semifinals still to be decided.
  for (const qf of ["QF1", "QF2", "QF3", "QF4", "QF5"]) await expect(spectator.locator(`[data-heat="${qf}"] tbody tr`)).toHaveCount(6);
  await expect(spectator.locator('[data-heat="SF1"]').getByText("To be decided")).toHaveCount(6);

  // Quarterfinals: QF1 is an upset (its sixth seed wins); the others go by seed.
  const quarterfinalBibs: Record<string, string[]> = {};
  for (let i = 1; i <= 5; i++) {
    const bibs = await bibsIn(page.locator(`[data-heat="QF${i}"]`));
    quarterfinalBibs[`QF${i}`] = bibs;
    await enterHeat(page, `QF${i}`, `Quarterfinal ${i}`, (i === 1 ? [...bibs].reverse() : bibs).join(" "));
  }
  // SF1 takes QF1's and QF2's top two and the two lucky losers: the upset winner is in it.
  const sf1 = spectator.locator('[data-heat="SF1"]');
  await expect(sf1.getByText("To be decided")).toHaveCount(0);
  await expect(sf1.locator("tbody tr").first().locator("td").nth(1)).toHaveText(quarterfinalBibs.QF1!.at(-1)!);
  await expect(spectator.locator('[data-heat="QF1"] abbr[title="Goes on by place"]')).toHaveCount(2);

  for (const [canonical, name] of [
    ["SF1", "Semifinal 1"],
    ["SF2", "Semifinal 2"],
  ] as const) {
    await enterHeat(page, canonical, name, (await bibsIn(page.locator(`[data-heat="${canonical}"]`))).join(" "));
  }
  await expect(spectator.locator('[data-heat="A-Final"]').getByText("To be decided")).toHaveCount(0);
  await expect(spectator.locator('[data-heat="B-Final"]').getByText("To be decided")).toHaveCount(0);
  // Semifinals: four go on by place and two as lucky losers; the six who race the B-Final are not marked LL.
  const semis = spectator.locator('[data-heat="SF1"], [data-heat="SF2"]');
  await expect(semis.locator('abbr[title="Goes on by place"]')).toHaveCount(4);
  await expect(semis.locator('abbr[title="Goes on as a lucky loser"]')).toHaveCount(2);
  await expect(semis.locator('abbr[title="Races a lower final (B-Final)"]')).toHaveCount(6);
  await expect(spectator.locator('[data-heat="B-Final"] abbr', { hasText: /^LL/ })).toHaveCount(0);
  await expect(spectator.locator('[data-heat="B-Final"] abbr', { hasText: "Next" })).toHaveCount(6);

  // The B-Final is raced first; the A-Final ends in a photo finish for second.
  const bFinal = await bibsIn(page.locator('[data-heat="B-Final"]'));
  await enterHeat(page, "B-Final", "B-Final", bFinal.join(" "));
  const aFinal = await bibsIn(page.locator('[data-heat="A-Final"]'));
  await enterHeat(page, "A-Final", "A-Final", `${aFinal[2]} ${aFinal[0]}=${aFinal[1]} ${aFinal.slice(3).join(" ")}`);

  // The spectator's ranking: the A-Final's winner first, two racers sharing second, the B-Final's winner seventh.
  await expect(spectator.getByText("Ranking", { exact: true })).toBeVisible();
  const ranking = spectator.locator(".heat-ranking tbody tr");
  await expect(ranking).toHaveCount(30);
  await expect(ranking.nth(0).locator("td").nth(1)).toHaveText(aFinal[2]!);
  await expect(ranking.nth(1).locator("td").first()).toHaveText("2");
  await expect(ranking.nth(2).locator("td").first()).toHaveText("2");
  await expect(ranking.nth(6).locator("td").nth(1)).toHaveText(bFinal[0]!);
  await expect(ranking.nth(6).locator("td").first()).toHaveText("7");
  expect(await spectator.evaluate(() => (window as unknown as { stillSamePage?: boolean }).stillSamePage)).toBe(true);
  await spectatorContext.close();
});
