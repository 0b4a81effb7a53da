import { expect, test, type Page } from "@playwright/test";
import { demoUsers } from "../../scripts/demo-data";
import { setUpDemoRace, signInWithPasswordFrom, url, waitForHydration } from "./hosts";
import { MAIN } from "./race-pages";

interface StoredEntry {
  entry: { key: string; bib: number };
}

/** Types a bib on the keypad and presses Enter, as a timer does when a racer crosses. */
async function enterBib(page: Page, bib: number) {
  await page.locator("#keypad-bib").fill(String(bib));
  await page.locator("#keypad-bib").press("Enter");
}

/** Every keypad queue of the race in the origin's localStorage, by key. */
function storedQueues(page: Page, raceId: string): Promise<Record<string, StoredEntry[]>> {
  return page.evaluate((prefix) => {
    const queues: Record<string, StoredEntry[]> = {};
    for (const key of Object.keys(localStorage)) if (key.startsWith(prefix)) queues[key] = JSON.parse(localStorage.getItem(key) ?? "[]") as StoredEntry[];
    return queues;
  }, `startline:keypad:${raceId}`);
}

test("two keypad tabs working offline keep every entry, and the tab left open sends the closed one's", async ({ page, context }) => {
  test.setTimeout(90_000);
  const demo = await setUpDemoRace(false);
  const coach = demoUsers[1];
  await page.goto(url(MAIN, "/login"));
  await signInWithPasswordFrom(page, coach.email, coach.password);
  await page.waitForURL(url(MAIN, "/manage"));
  const keypad = url(MAIN, `/race/${demo.raceId}/admin/keypad`);
  const [bibA1, bibA2, bibB1, bibB2] = demo.racers.slice(0, 4).map((r) => r.bib) as [number, number, number, number];

  const tabA = page;
  await tabA.goto(keypad);
  await waitForHydration(tabA);
  const tabB = await context.newPage();
  await tabB.goto(keypad);
  await waitForHydration(tabB);

  await context.setOffline(true);
  await enterBib(tabA, bibA1);
  await enterBib(tabB, bibB1);
  await enterBib(tabA, bibA2);
  await enterBib(tabB, bibB2);
  for (const tab of [tabA, tabB]) {
    await expect(tab.getByRole("status").filter({ hasText: "waiting to be sent" })).toHaveText("2 entries waiting to be sent.");
    await expect(tab.getByRole("alert")).toContainText("No connection");
  }

  // Each tab keeps its own queue: neither overwrote the other's entries.
  const queues = await storedQueues(tabA, demo.raceId);
  expect(Object.keys(queues)).toHaveLength(2);
  const entries = Object.values(queues).flat();
  expect(entries.map((e) => e.entry.bib).sort((a, b) => a - b)).toEqual([bibA1, bibA2, bibB1, bibB2].sort((a, b) => a - b));

  // Tab B is closed before it could send; the connection comes back.
  await tabB.close();
  await context.setOffline(false);

  // Tab A adopts B's queue (its lock was released with the tab) and sends all four.
  await expect(tabA.getByText("All entries are sent.")).toBeVisible({ timeout: 20_000 });
  await expect(tabA.locator(".keypad-log li")).toHaveCount(4);
  await expect(tabA.locator(".keypad-log .state-sent")).toHaveCount(4);
  const left = await storedQueues(tabA, demo.raceId);
  expect(Object.keys(left)).toHaveLength(1);

  // Every entry reached the server: the same keys again are all counted as duplicates.
  const resend = await tabA.request.post(url(MAIN, `/timing-api/races/${demo.raceId}/manual`), { data: { entries: entries.map((e) => e.entry) } });
  expect(resend.status()).toBe(200);
  expect(await resend.json()).toEqual({ accepted: 0, duplicates: 4, unknown_bibs: [] });
});
