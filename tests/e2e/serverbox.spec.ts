import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { demoUsers } from "../../scripts/demo-data";
import { E2E_PORT } from "../../playwright.config";
import { setUpDemoRace, signInWithPasswordFrom, url, waitForHydration, type DemoRace } from "./hosts";

// The box reaches the platform through a proxy the test switches off and on: "the internet is down".
const PROXY_PORT = Number(process.env.SERVERBOX_PROXY_PORT ?? E2E_PORT + 3600);
const BOX_PORT = Number(process.env.SERVERBOX_BOX_PORT ?? E2E_PORT + 3700);
const box = (p: string) => `http://127.0.0.1:${BOX_PORT}${p}`;

/** Forwards to the e2e server as its main host while up; while down, every connection is dropped unanswered. */
function startProxy(): Promise<{ server: Server; setUp: (up: boolean) => void }> {
  let up = true;
  const server = createServer((incoming, outgoing) => {
    if (!up) return incoming.socket.destroy();
    const forward = httpRequest(
      { host: "127.0.0.1", port: E2E_PORT, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: `localhost:${E2E_PORT}` } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on("error", () => outgoing.destroy());
    incoming.pipe(forward);
  });
  return new Promise((resolve) => server.listen(PROXY_PORT, "127.0.0.1", () => resolve({ server, setUp: (value) => (up = value) })));
}

interface BoxProcess {
  child: ChildProcess;
  output: () => string;
}

function startBox(store: string, raceId: string): BoxProcess {
  let output = "";
  // One process (tsx as a loader, not a wrapper that forks), so killing it leaves no box behind.
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "serverbox/main.ts",
      "race",
      raceId,
      "--server",
      `http://127.0.0.1:${PROXY_PORT}`,
      "--store",
      store,
      "--port",
      String(BOX_PORT),
      "--name",
      "E2E finish box",
      "--retry-cap",
      "1",
      "--heartbeat",
      "2",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

function stopBox(running: BoxProcess | null, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (!running || running.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    running.child.once("exit", () => resolve());
    running.child.kill(signal);
  });
}

interface Status {
  paired: boolean;
  race: { id: string } | null;
  readsStored: number;
  readsSynced: number;
  online: boolean | null;
  syncError: string | null;
}
const status = async (): Promise<Status> => (await (await fetch(box("/status.json"))).json()) as Status;

/** One racer's three laps as the hill and finish readers see them (twice each pass), posted to the box as the readers would. */
async function postLaps(demo: DemoRace, bib: number, lapSeconds: number, boot: string, seq: { value: number }) {
  const chip = demo.racers.find((r) => r.bib === bib)!.chip;
  for (const [name, fraction] of [
    ["Hill reader", 0.5],
    ["Finish reader", 1],
  ] as const) {
    const device = demo.devices.find((d) => d.name === name)!;
    const reads = [0, 1, 2].flatMap((lap) => {
      const at = demo.startTime * 1000 + Math.round((lap + fraction) * lapSeconds * 1_000_000);
      return [
        { seq: seq.value++, chip, time: at },
        { seq: seq.value++, chip, time: at + 400_000 },
      ];
    });
    const body = JSON.stringify({ boot, reads });
    const post = () =>
      fetch(box(`/timing-api/races/${demo.raceId}/reads`), {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${device.token}` },
        body,
      });
    const first = await post();
    expect(first.status, await first.clone().text()).toBe(200);
    expect(await first.json()).toMatchObject({ accepted: 6, duplicates: 0 });
    // A reader that missed the answer sends the batch again: the box counts it once.
    const again = await post();
    expect(await again.json()).toMatchObject({ accepted: 0, duplicates: 6 });
  }
}

let running: BoxProcess | null = null;
let proxy: Awaited<ReturnType<typeof startProxy>> | null = null;
// Made by the test, not when the file is loaded, so a run that never starts leaves no folder behind.
let store = "";

test.afterAll(async () => {
  await stopBox(running, "SIGKILL");
  await new Promise((resolve) => (proxy ? proxy.server.close(resolve) : resolve(undefined)));
  proxy?.server.closeAllConnections();
  if (store) rmSync(store, { recursive: true, force: true });
});

test("npm run serverbox is paired by its code, times the demo race offline (readers and the finish keypad), survives a crash, and syncs each crossing and entry once", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const coach = demoUsers.find((u) => u.role.type === "org_admin")!;
  const demo = await setUpDemoRace(true);
  store = mkdtempSync(path.join(tmpdir(), "serverbox-e2e-"));
  proxy = await startProxy();

  // 1. The box starts, asks to be paired and prints its code; the club admin approves it in the browser.
  running = startBox(store, demo.raceId);
  await expect.poll(() => /enters the code ([A-Z]{4}-[A-Z]{4})/.exec(running!.output())?.[1] ?? null, { timeout: 15_000 }).not.toBeNull();
  const code = /enters the code ([A-Z]{4}-[A-Z]{4})/.exec(running.output())![1]!;
  const context = await browser.newContext();
  const admin = await context.newPage();
  await admin.goto(url("localhost", `/pair?code=${code}`));
  await signInWithPasswordFrom(admin, coach.email, coach.password);
  await admin.waitForURL((u) => u.pathname.endsWith("/servers/pair"));
  await waitForHydration(admin);
  await expect(admin.getByRole("heading", { name: "Serverbox E2E finish box" })).toBeVisible();
  await admin.getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByText("Serverbox paired.")).toBeVisible();

  // 2. It polls, gets its token (kept in its store, for its user only) and takes the demo race.
  await expect.poll(async () => (await status()).race?.id ?? null, { timeout: 20_000 }).toBe(demo.raceId);
  const identity = JSON.parse(readFileSync(path.join(store, "box.json"), "utf8")) as { token: string };
  expect(identity.token).toMatch(/^sbx_/);

  // 3. The internet goes down; the readers post to the box, which answers at once and ranks them itself.
  proxy.setUp(false);
  const seq = { value: 1 };
  // Racers with a chip: an earlier test may have entered a registrant in the demo race, who has a bib only.
  const [first, second, third] = demo.racers.filter((r) => r.chip).map((r) => r.bib);
  await postLaps(demo, first!, 40, "reader-boot-1", seq);
  await postLaps(demo, second!, 38, "reader-boot-1", seq);
  // The finish keypad types two bibs the readers did not see (decision 0067): one passing the stadium, one out (DNF).
  const [keypadBib, dnfBib] = demo.racers
    .filter((r) => r.chip)
    .map((r) => r.bib)
    .slice(3, 5);
  const setup = JSON.parse(readFileSync(path.join(store, "races", demo.raceId, "setup.json"), "utf8")) as {
    results_setup: { documents: { TimingPoint: { id: string; data: { name: string } }[] } };
  };
  const stadium = setup.results_setup.documents.TimingPoint.find((p) => p.data.name === "Stadium")!.id;
  // Keys new on every run: the demo race is reused, and the platform keeps each key it has seen.
  const run = crypto.randomUUID().slice(0, 8);
  const keypad = {
    entries: [
      { kind: "time", key: `e2e-keypad-${run}-1`, bib: keypadBib, point: stadium, time: demo.startTime * 1000 + 50_000_000 },
      { kind: "status", key: `e2e-keypad-${run}-2`, bib: dnfBib, status: "dnf" },
    ],
  };
  const typed = await fetch(box(`/timing-api/races/${demo.raceId}/manual`), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(keypad),
  });
  expect(typed.status, await typed.clone().text()).toBe(200);
  expect(await typed.json()).toEqual({ accepted: 2, duplicates: 0, unknown_bibs: [] });
  // The keypad's retry after a lost answer: taken once.
  const retried = await fetch(box(`/timing-api/races/${demo.raceId}/manual`), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(keypad),
  });
  expect(await retried.json()).toMatchObject({ accepted: 0, duplicates: 2 });
  await expect.poll(async () => (await status()).online, { timeout: 10_000 }).toBe(false);
  const page = await context.newPage();
  await page.goto(box("/"));
  await expect(page.locator('[data-fact="Platform"]')).toContainText("Offline");
  await expect(page.locator('[data-fact="Reads stored"]')).toHaveText("26");
  await expect(page.locator(`tr[data-race="${demo.raceId}"] [data-col="queued"]`)).toHaveText("26");
  await expect(page.locator('[data-fact="Reads synced"]')).toHaveText("0");
  await expect(page.locator("tr[data-racer]").first()).toContainText("1:54");

  // 4. The box crashes and comes back (same store): nothing it acknowledged is lost; more reads arrive.
  await stopBox(running, "SIGKILL");
  running = startBox(store, demo.raceId);
  await expect.poll(async () => (await status().catch(() => null))?.readsStored ?? null, { timeout: 15_000 }).toBe(26);
  await postLaps(demo, third!, 45, "reader-boot-2", { value: 1 });
  expect((await status()).readsStored).toBe(38);

  // 5. The internet comes back: the box syncs everything, and the platform's results equal the box's.
  proxy.setUp(true);
  await expect.poll(async () => (await status()).readsSynced, { timeout: 20_000 }).toBe(38);
  const sync = JSON.parse(readFileSync(path.join(store, "races", demo.raceId, "sync.json"), "utf8")) as { accepted: number; duplicates: number };
  expect(sync.accepted + sync.duplicates).toBeGreaterThanOrEqual(38);
  const platform = (await (
    await fetch(url("localhost", `/serverbox-api/races/${demo.raceId}`), { headers: { Authorization: `Bearer ${identity.token}` } })
  ).json()) as { racers: { id: string; status: string; time: number | null }[] };
  const local = (await (await fetch(box("/results.json"))).json()) as { racers: { id: string; status: string; time: number | null }[] };
  const byId = (rows: { id: string; status: string; time: number | null }[]) => Object.fromEntries(rows.map((r) => [r.id, [r.status, r.time]]));
  expect(byId(platform.racers)).toEqual(byId(local.racers));
  // The keypad's entries made offline are the platform's now: the DNF, and the stadium pass that put a racer on course.
  const racerOf = (bib: number | undefined) => demo.racers.find((r) => r.bib === bib)!.id;
  expect(byId(platform.racers)[racerOf(dnfBib)]).toEqual(["dnf", null]);
  expect(byId(platform.racers)[racerOf(keypadBib)]![0]).not.toBe("notstarted");
  const finished = platform.racers.filter((r) => r.status === "finished");
  expect(finished).toHaveLength(3);
  // Each crossing counted once: three laps of 40 s (and the two others) are the times, not doubled passes.
  expect(finished.map((r) => r.time).sort((a, b) => a! - b!)).toEqual([114_000_000, 120_000_000, 135_000_000]);
  await page.reload();
  await expect(page.locator('[data-fact="Platform"]')).toContainText("Online");
  await expect(page.locator('[data-fact="Reads synced"]')).toHaveText("38");
  await expect(page.locator(`tr[data-race="${demo.raceId}"] [data-col="state"]`)).toHaveText("Up to date");

  // The race's own results page on the club's site shows the same winner's time.
  await page.goto(url("demo.localhost", `/races/${demo.raceId}`));
  await expect(page.getByText("1:54.0").first()).toBeVisible();
  await context.close();
});
