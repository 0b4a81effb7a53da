import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { demoClubs, demoUsers } from "../../scripts/demo-data";
import { E2E_PORT } from "../../playwright.config";
import { setUpDemoRace, signInWithPasswordFrom, url, waitForHydration, type DemoRace } from "./hosts";
import { createAnotherRace, createRaceThroughPages, SECOND_US, setUpFinishOnlyRace } from "./race-pages";

// The box reaches the platform through a proxy the test switches off and on: "the internet is down".
const PROXY_PORT = Number(process.env.SERVERBOX_PROXY_PORT ?? E2E_PORT + 3600);
const BOX_PORT = Number(process.env.SERVERBOX_BOX_PORT ?? E2E_PORT + 3700);
const box = (p: string) => `http://127.0.0.1:${BOX_PORT}${p}`;
// The web keypads' listener (decision 0084), on 127.0.0.1 here as this machine serves nothing wider; the phone
// reaches it as keypad.venue, an address that is not localhost, as a laptop's on a venue's network is.
const LAN_PORT = Number(process.env.SERVERBOX_LAN_PORT ?? E2E_PORT + 3800);

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

function startBox(store: string, raceIds: readonly string[], extra: readonly string[] = []): BoxProcess {
  let output = "";
  // One process (tsx as a loader, not a wrapper that forks), so killing it leaves no box behind.
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "serverbox/main.ts",
      "race",
      ...raceIds,
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
      ...extra,
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
  races: { id: string; stored: number; synced: number; error: string | null }[];
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

/** The club admin approves the box's printed code in the browser (signing in first when `signIn`). */
async function approveInBrowser(admin: Page, box: BoxProcess, signIn: boolean) {
  const coach = demoUsers.find((u) => u.role.type === "org_admin")!;
  await expect.poll(() => /enters the code ([A-Z]{4}-[A-Z]{4})/.exec(box.output())?.[1] ?? null, { timeout: 15_000 }).not.toBeNull();
  const code = /enters the code ([A-Z]{4}-[A-Z]{4})/.exec(box.output())![1]!;
  await admin.goto(url("localhost", `/pair?code=${code}`));
  if (signIn) await signInWithPasswordFrom(admin, coach.email, coach.password);
  await admin.waitForURL((u) => u.pathname.endsWith("/servers/pair"));
  await waitForHydration(admin);
  await expect(admin.getByRole("heading", { name: "Serverbox E2E finish box" })).toBeVisible();
  await admin.getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByText("Serverbox paired.")).toBeVisible();
}

let running: BoxProcess | null = null;
let proxy: Awaited<ReturnType<typeof startProxy>> | null = null;
// Made by the tests, not when the file is loaded, so a run that never starts leaves no folder behind.
let store = "";
let secondStore = "";

test.afterAll(async () => {
  await stopBox(running, "SIGKILL");
  await new Promise((resolve) => (proxy ? proxy.server.close(resolve) : resolve(undefined)));
  proxy?.server.closeAllConnections();
  for (const folder of [store, secondStore]) if (folder) rmSync(folder, { recursive: true, force: true });
});

test("npm run serverbox is paired by its code, times the demo race offline (readers and the finish keypad), survives a crash, and syncs each crossing and entry once", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const demo = await setUpDemoRace(true);
  store = mkdtempSync(path.join(tmpdir(), "serverbox-e2e-"));
  proxy = await startProxy();

  // 1. The box starts, asks to be paired and prints its code; the club admin approves it in the browser.
  running = startBox(store, [demo.raceId]);
  const context = await browser.newContext();
  await approveInBrowser(await context.newPage(), running, true);

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
  running = startBox(store, [demo.raceId]);
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
  // The box's page refreshes itself every 3 s (a reload of ours could collide with it and be aborted).
  await expect(page.locator('[data-fact="Platform"]')).toContainText("Online", { timeout: 10_000 });
  await expect(page.locator('[data-fact="Reads synced"]')).toHaveText("38", { timeout: 10_000 });
  await expect(page.locator(`tr[data-race="${demo.raceId}"] [data-col="state"]`)).toHaveText("Up to date", { timeout: 10_000 });

  // The race's own results page on the club's site shows the same winner's time.
  await page.goto(url("demo.localhost", `/races/${demo.raceId}`));
  await expect(page.getByText("1:54.0").first()).toBeVisible();
  await context.close();
});

type PlatformResults = { racers: { id: string; bib: number | null; status: string; time: number | null }[] };

test("one serverbox times two races at once: a keypad entry sent to each reaches only its own race's results", async ({ browser }) => {
  test.setTimeout(180_000);
  // Two races of this test's own, so the demo race the later specs share is left as it was.
  const context = await browser.newContext();
  const page = await context.newPage();
  const one = await createRaceThroughPages(page, "Box race A");
  await setUpFinishOnlyRace(page, one.base, "Box course", [
    { bib: 1, first: "Alma", chip: "BOXA1" },
    { bib: 2, first: "Bruno", chip: "BOXA2" },
  ]);
  const two = await createAnotherRace(page, "Box race B", 0);
  await setUpFinishOnlyRace(page, two.base, "Box course", [
    { bib: 1, first: "Cleo", chip: "BOXB1" },
    { bib: 2, first: "Dag", chip: "BOXB2" },
  ]);

  // A box of its own (the first test's is stopped), paired by the club admin already signed in, taking both races.
  await stopBox(running, "SIGKILL");
  proxy ??= await startProxy();
  proxy.setUp(true);
  secondStore = mkdtempSync(path.join(tmpdir(), "serverbox-e2e-two-"));
  running = startBox(secondStore, [one.raceId, two.raceId], ["--lan", String(LAN_PORT), "--lan-host", "127.0.0.1"]);
  await approveInBrowser(page, running, false);
  const setupPath = (raceId: string) => path.join(secondStore, "races", raceId, "setup.json");
  await expect
    .poll(async () => ((await status().catch(() => null))?.races ?? []).map((r) => r.id).sort(), { timeout: 20_000 })
    .toEqual([one.raceId, two.raceId].sort());
  await expect.poll(() => [one, two].every((race) => existsSync(setupPath(race.raceId))), { timeout: 20_000 }).toBe(true);
  const finishOf = (raceId: string) =>
    (
      JSON.parse(readFileSync(setupPath(raceId), "utf8")) as { results_setup: { documents: { TimingPoint: { id: string; data: { name: string } }[] } } }
    ).results_setup.documents.TimingPoint.find((p) => p.data.name === "Finish")!.id;

  // The finish keypad sends bib 1 of race A (10:00) and bib 2 of race B (11:40) to the box: the same bibs exist in both.
  const run = crypto.randomUUID().slice(0, 8);
  const typeAt = async (race: typeof one, bib: number, seconds: number) => {
    const entry = { kind: "time", key: `e2e-two-${run}-${race.raceId}`, bib, point: finishOf(race.raceId), time: race.startTimeUs + seconds * SECOND_US };
    const typed = await fetch(box(`/timing-api/races/${race.raceId}/manual`), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ entries: [entry] }),
    });
    expect(typed.status, await typed.clone().text()).toBe(200);
    expect(await typed.json()).toEqual({ accepted: 1, duplicates: 0, unknown_bibs: [] });
  };
  await typeAt(one, 1, 600);
  await typeAt(two, 2, 700);
  await expect
    .poll(async () => (await status()).races.map((r) => [r.id, r.stored, r.synced, r.error]).sort(), { timeout: 20_000 })
    .toEqual(
      [
        [one.raceId, 1, 1, null],
        [two.raceId, 1, 1, null],
      ].sort(),
    );

  // Each race's results on the platform have its own entry and not the other's.
  const token = (JSON.parse(readFileSync(path.join(secondStore, "box.json"), "utf8")) as { token: string }).token;
  const results = async (raceId: string) => {
    const reply = await fetch(url("localhost", `/serverbox-api/races/${raceId}`), { headers: { Authorization: `Bearer ${token}` } });
    const body = (await reply.json()) as PlatformResults;
    return Object.fromEntries(body.racers.map((r) => [r.bib, [r.status, r.time]]));
  };
  expect(await results(one.raceId)).toEqual({ 1: ["finished", 600 * SECOND_US], 2: ["notstarted", null] });

  // The internet goes down; a phone on the venue's network pairs with the box by the code on its page and
  // keys bib 2 of race A out (DNF) on the web keypad. The box takes it at once and forwards it when back.
  proxy.setUp(false);
  await page.goto(box("/"));
  const code = (await page.locator('[data-fact="Keypad code"]').textContent())!.replace(/\s/g, "");
  expect(code).toMatch(/^\d{6}$/);
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const keypad = await phone.newPage();
  // The laptop's address on the venue's network (playwright.config.ts maps it to 127.0.0.1): not a secure context.
  await keypad.goto(`http://keypad.venue:${LAN_PORT}/keypad`);
  expect(await keypad.evaluate(() => window.isSecureContext)).toBe(false);
  await keypad.getByLabel("Code").fill("000000" === code ? "000001" : "000000");
  await keypad.getByLabel("This keypad's name").fill("Finish phone");
  await keypad.getByRole("button", { name: "Pair" }).click();
  await expect(keypad.getByRole("alert")).toHaveText("That is not the code on the serverbox's page. Check it and try again.");
  await keypad.getByLabel("Code").fill(`${code.slice(0, 3)} ${code.slice(3)}`);
  await keypad.getByRole("button", { name: "Pair" }).click();
  await keypad.getByRole("link", { name: "Box race A" }).click();
  await keypad.locator("#keypad-bib").waitFor();
  await keypad.locator("#keypad-status-bib").fill("2");
  await keypad.getByRole("button", { name: "DNF" }).click();
  await expect(keypad.getByRole("listitem").first()).toContainText("Bib 2 · DNF");
  await expect(keypad.getByRole("listitem").first()).toContainText("Sent");
  await expect(keypad.getByText("All entries are sent.")).toBeVisible();
  await expect.poll(async () => (await status()).races.find((r) => r.id === one.raceId)?.stored, { timeout: 10_000 }).toBe(2);
  // The box's page shows the phone at its next self-refresh (every 3 s).
  await expect(page.locator("tr[data-keypad]")).toContainText("Finish phone", { timeout: 10_000 });
  proxy.setUp(true);
  await expect.poll(async () => (await status()).races.find((r) => r.id === one.raceId)?.synced, { timeout: 20_000 }).toBe(2);
  expect(await results(one.raceId)).toEqual({ 1: ["finished", 600 * SECOND_US], 2: ["dnf", null] });

  // The club sees the phone on its Servers page (the box's heartbeat lists it) and revokes it there; the box
  // unpairs it at its next heartbeat, and the phone's next entry is kept on the phone, refused by the box.
  const servers = url("localhost", `/club/${demoClubs[0].id}/servers`);
  await expect
    .poll(
      async () => {
        await page.goto(servers);
        return page.getByRole("row", { name: /Finish phone/ }).count();
      },
      { timeout: 15_000 },
    )
    .toBe(1);
  const phoneRow = page.getByRole("row", { name: /Finish phone/ });
  await expect(phoneRow).toContainText("WebClient");
  await expect(phoneRow).toContainText("via E2E finish box");
  // Race A's Keyed entries page names who keyed each entry: the box's own keypad, and the phone by its name.
  await page.goto(url("localhost", `/race/${one.raceId}/admin/entries`));
  await expect(page.getByRole("row", { name: /DNF/ })).toContainText("Finish phone via E2E finish box");
  await expect(page.getByRole("row", { name: /Time at Finish/ })).toContainText("E2E finish box (serverbox)");
  await page.goto(servers);
  await page.getByRole("link", { name: "Revoke Finish phone" }).click();
  await waitForHydration(page);
  await page.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(page.getByRole("row", { name: /Finish phone/ })).toContainText("Revoked");
  await page.goto(box("/"));
  await expect(page.locator("tr[data-keypad]")).toHaveCount(0, { timeout: 15_000 });
  await keypad.locator("#keypad-status-bib").fill("1");
  await keypad.getByRole("button", { name: "DNS" }).click();
  await expect(keypad.getByRole("alert")).toContainText("This keypad is no longer paired with the serverbox");
  await expect(keypad.getByText("1 entry waiting to be sent.")).toBeVisible();
  await phone.close();
  expect(await results(two.raceId)).toEqual({ 1: ["notstarted", null], 2: ["finished", 700 * SECOND_US] });
  for (const [race, own, other] of [
    [one, "10:00", "11:40"],
    [two, "11:40", "10:00"],
  ] as const) {
    await page.goto(url("localhost", `/races/${race.raceId}`));
    await expect(page.getByText(own).first()).toBeVisible();
    await expect(page.getByText(other)).toHaveCount(0);
  }
  await context.close();
});
