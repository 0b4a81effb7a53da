import { expect, test, type Page } from "@playwright/test";
import { send } from "../../bench/http";
import { E2E_PORT } from "../../playwright.config";
import { demoSites } from "../../scripts/demo-data";
import { setUpDemoRace, url, waitForHydration, type DemoRace } from "./hosts";

const SECOND_US = 1_000_000;

/** One racer's finish: a read at the finish reader `seconds` after the start. */
async function finish(demo: DemoRace, bib: number, seconds: number, seq: number) {
  const chip = demo.racers.find((r) => r.bib === bib)!.chip;
  const device = demo.devices.find((d) => d.name === "Finish reader")!;
  const reads = [{ seq, chip, time: demo.startTime * 1000 + seconds * SECOND_US }];
  const reply = await send(E2E_PORT, "localhost", "POST", `/timing-api/races/${demo.raceId}/reads`, JSON.stringify({ reads }), {
    "Content-Type": "application/json",
    Authorization: `Bearer ${device.token}`,
  });
  expect(reply.status).toBe(200);
}

/** Records every race socket the page opens (its query) and keeps a handle on the newest one. */
async function recordSockets(page: Page) {
  await page.addInitScript(() => {
    const Native = window.WebSocket;
    const seen: { query: string; socket: WebSocket; binary: number }[] = [];
    (window as unknown as { raceSockets: typeof seen }).raceSockets = seen;
    window.WebSocket = class extends Native {
      constructor(address: string | URL, protocols?: string | string[]) {
        super(address, protocols);
        if (!String(address).includes("/socket?")) return;
        const entry = { query: String(address).split("?")[1] ?? "", socket: this, binary: 0 };
        seen.push(entry);
        // Deflated frames (decision 0039) arrive as binary messages.
        this.addEventListener("message", (event: MessageEvent) => void (typeof event.data !== "string" && (entry.binary += 1)));
      }
    };
  });
}

const socketQueries = (page: Page) =>
  page.evaluate(() => (window as unknown as { raceSockets: { query: string }[] }).raceSockets.map((s) => new URLSearchParams(s.query).get("since")));

test("the results page reconnects after its connection drops and catches up with a crossing posted meanwhile", async ({ page, context }) => {
  const demo = await setUpDemoRace(true);
  await recordSockets(page);
  await page.goto(url(demoSites[0].hostname, `/races/${demo.raceId}`));
  await waitForHydration(page);
  const state = page.locator("[data-live-state]");
  await expect(state).toHaveAttribute("data-live-state", "live");
  const [bib] = demo.racers.map((r) => r.bib);
  const row = page.locator(`.results-table tbody tr[data-bib="${bib}"]`);
  await expect(row.locator(".result-time")).toHaveText("");

  await context.setOffline(true);
  await expect(state).toHaveAttribute("data-live-state", "offline");
  await finish(demo, bib!, 300, Date.now());
  // The dropped socket's frames are not applied: the page waits for its reconnect.
  await page.waitForTimeout(1000);
  await expect(row.locator(".result-time")).toHaveText("");

  const fetched: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/results.json")) fetched.push(request.url());
  });
  await context.setOffline(false);
  await expect(state).toHaveAttribute("data-live-state", "live");
  await expect(row.locator(".result-time")).not.toHaveText("");
  const since = await socketQueries(page);
  // The reconnect named the version the page held; the room held a newer one, so the page fetched its page of rows.
  expect(since.length).toBeGreaterThanOrEqual(2);
  expect(since[since.length - 1]).toBe(since[0]);
  expect(fetched.length).toBeGreaterThanOrEqual(1);
  // It asked for at least the version the room named, newer than the one it held.
  expect(Number(new URL(fetched[0]!).searchParams.get("v"))).toBeGreaterThan(Number(since[0]));
});

test("a socket closed under the page is reopened and the page stays current", async ({ page }) => {
  const demo = await setUpDemoRace(true);
  await recordSockets(page);
  await page.goto(url(demoSites[0].hostname, `/races/${demo.raceId}`));
  await waitForHydration(page);
  const state = page.locator("[data-live-state]");
  await expect(state).toHaveAttribute("data-live-state", "live");
  const [first, second] = demo.racers.map((r) => r.bib);

  await finish(demo, first!, 300, Date.now());
  await expect(page.locator(`.results-table tbody tr[data-bib="${first}"] .result-time`)).not.toHaveText("");
  await page.evaluate(() => (window as unknown as { raceSockets: { socket: WebSocket }[] }).raceSockets.at(-1)!.socket.close());
  await finish(demo, second!, 280, Date.now() + 1);
  await expect(state).toHaveAttribute("data-live-state", "live");
  await expect(page.locator(`.results-table tbody tr[data-bib="${second}"] .result-time`)).not.toHaveText("");
  await expect(page.locator(".results-table tbody tr").first()).toHaveAttribute("data-bib", String(second));
  expect((await socketQueries(page)).length).toBeGreaterThanOrEqual(2);
});
