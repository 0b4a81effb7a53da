// A crowd on the paged results page while a race finishes (decision 0044): PAGES spectators each follow page 1
// as the browser does (a `window=1` socket; rows on the page patched from frames; the page fetched again as JSON
// when pushed rows move it, after the same spread-out wait, naming the version it holds), while the two readers
// post a mass finish of RACERS racers. Reports how many page fetches the crowd made, how many reached the race
// room (edge cache misses), their latency, and the readers' acknowledgement times beside the same finish with no
// crowd. Then a racer on page 1 drops out while 1,000 pages follow page 2 (decision 0087): the time until each page 2
// has fetched itself moved up, and how many of those fetches reached the race room. Every wait has a deadline; 503s
// and resets from the local proxy are retried (live-http.ts).
import { Agent } from "node:http";
import { inflateRawSync } from "node:zlib";
import WebSocket from "ws";
import { followWindowFrame, type Refetch } from "../app/hooks/window-frames";
import { windowMessageOf } from "../schema/wire/window-filter";
import { windowSearch } from "../schema/wire/results-window";
import { signInCookie } from "./http";
import { REFETCH_GAP_MS, REFETCH_NOW_SPREAD_MS, REFETCH_SPREAD_MS } from "../app/hooks/use-live-window";
import { demoSites } from "../scripts/demo-data";
import type { RaceServerMessage } from "../schema/wire/race-socket";
import type { ResultsWindow } from "../schema/wire/results-window";
import type { DemoRace } from "./live-devices";
import { nowMs, postJson, requestWithRetry, sleep, type Target } from "./live-http";
import { percentile } from "./http";
import { report } from "./report";

const RACERS = 3_000;
const PAGES = 300;
/** Spectators on page 2 when a racer on page 1 drops out. */
const FALL_PAGES = 1_000;
/** The field finishes over this long: 100 finishers a second, a big city race's peak. */
const FINISH_SPREAD_S = 30;
const BATCH_EVERY_MS = 250;
const OPEN_TIMEOUT_MS = 15_000;
const SETTLE_TIMEOUT_MS = 60_000;

interface Follower {
  ws: WebSocket;
  window: ResultsWindow;
  timer: ReturnType<typeof setTimeout> | null;
  inFlight: boolean;
  again: Refetch;
  buffered: RaceServerMessage[];
  /** When the page last finished fetching itself (nowMs). */
  fetchedAt: number;
}

export async function runResultsCrowd(port: number): Promise<void> {
  const host = demoSites[0].hostname;
  const target: Target = { port, host };
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const fetches: { ms: number; hit: boolean }[] = [];

  const baseline = await finishRace(port, target, agent, null);
  const crowd = await finishRace(port, target, agent, { pages: PAGES, fetches });
  const fall = await fallBehindPageOne(port, target, agent);
  agent.destroy();

  const ms = fetches.map((f) => f.ms).sort((a, b) => a - b);
  const misses = fetches.filter((f) => !f.hit).length;
  report(`results crowd: page fetches per spectator (${PAGES} on page 1, ${RACERS} finishing)`, round(fetches.length / PAGES), "fetches");
  report("results crowd: page fetches answered by the edge cache", round((100 * (fetches.length - misses)) / Math.max(1, fetches.length)), "%");
  report("results crowd: page fetches reaching the race room", misses, "fetches");
  report("results crowd: page fetch p95", round(percentile(ms, 95)), "ms");
  report("results crowd: reader ack p95 with no spectators", round(baseline.ackP95), "ms");
  report(`results crowd: reader ack p95 with ${PAGES} paged spectators`, round(crowd.ackP95), "ms");
  report("results crowd: pages showing the final first page", crowd.correct, `of ${PAGES}`);
  const fresh = fall.fresh.sort((a, b) => a - b);
  const label = `a page-1 racer's DNF to ${FALL_PAGES} page-2 spectators' fresh page`;
  report(
    `results crowd: ${label} p50 (their fetch waits ${REFETCH_GAP_MS / 1000}–${(REFETCH_GAP_MS + REFETCH_SPREAD_MS) / 1000} s by design)`,
    round(percentile(fresh, 50)),
    "ms",
  );
  report(`results crowd: ${label} p95`, round(percentile(fresh, 95)), "ms");
  report("results crowd: page-2 fetches after the DNF reaching the race room", fall.misses, `of ${fall.fetches} fetches`);
  report("results crowd: page-2 pages showing the right page after the DNF", fall.correct, `of ${FALL_PAGES}`);
}

/**
 * A racer on page 1 drops out while FALL_PAGES spectators follow page 2 (decision 0087): each page is told the
 * racer fell, fetches itself after the page's spread-out wait, and must then show every row moved up one place.
 * Measured from the DNF's answer to each page's fresh copy; counts the fetches that missed the edge cache.
 */
async function fallBehindPageOne(port: number, target: Target, agent: Agent): Promise<{ fresh: number[]; correct: number; fetches: number; misses: number }> {
  const { value: demo } = await postJson<DemoRace>({ port, host: "localhost" }, "/_dev/demo-race", { restart: true, racers: 200 }, { timeoutMs: 120_000 });
  const format = demo.formats.find((f) => f.name === "Results") ?? demo.formats[0]!;
  const finish = demo.devices.find((d) => d.name === "Finish reader")!;
  // 150 finishers of the demo's three laps, racer k in 600 + k s: pages 1 and 2 of 50 are full, in the order posted.
  const finishers = demo.racers.slice(0, 150);
  const reads = finishers.flatMap((racer, k) =>
    [1, 2, 3].map((lap) => ({ seq: k * 3 + lap, chip: racer.chip, time: demo.startTime * 1000 + Math.round(((600 + k) * lap * 1_000_000) / 3) })),
  );
  const posted = await postJson(
    target,
    `/timing-api/races/${demo.raceId}/reads`,
    { boot: `bench-fall-${Date.now()}`, reads },
    {
      agent,
      headers: { Authorization: `Bearer ${finish.token}` },
      timeoutMs: 15_000,
    },
  );
  if (posted.reply.status !== 200) throw new Error(`results crowd: the finish was refused: ${posted.reply.status}`);
  let fetches = 0;
  let misses = 0;
  const fetchPage = async (window: ResultsWindow | null): Promise<ResultsWindow> => {
    const query = window ? windowSearch({ ...window.query, racer: null }, format.id) : `?format=${format.id}&page=2`;
    const path = `/races/${demo.raceId}/results.json${query}${window ? `&v=${encodeURIComponent(window.format.version)}` : ""}`;
    const reply = await requestWithRetry(target, path, { agent, timeoutMs: 15_000 });
    if (reply.status !== 200) throw new Error(`results crowd: GET ${path}: ${reply.status}`);
    fetches++;
    if (reply.headers["x-edge-cache"] !== "hit") misses++;
    return JSON.parse(reply.body) as ResultsWindow;
  };
  // Page 2 once every finish is in it.
  let pageTwo = await fetchPage(null);
  for (const deadline = nowMs() + 15_000; pageTwo.current?.entries.length !== 50 && nowMs() < deadline; ) {
    await sleep(200);
    pageTwo = await fetchPage(null);
  }
  const firstBefore = pageTwo.current?.entries[0]?.row.racerId;
  if (firstBefore !== finishers[50]!.id) throw new Error("results crowd: page 2 did not start with the 51st finisher");
  const followers: Follower[] = [];
  for (let i = 0; i < FALL_PAGES; i++) followers.push(await follow(port, demo.raceId, pageTwo, fetchPage, true));
  // The filters reach the shards; nothing else happens meanwhile.
  await sleep(2_000);
  fetches = 0;
  misses = 0;

  const cookie = await signInCookie(port, "localhost", { email: "coach@nordic-demo.local", password: "nordic-club-demo" });
  const started = nowMs();
  const dnf = await postJson(
    { port, host: "localhost" },
    `/timing-api/races/${demo.raceId}/manual`,
    { entries: [{ kind: "status", key: `bench-fall-${Date.now()}`, bib: finishers[2]!.bib, status: "dnf", time: Date.now() * 1000 }] },
    { agent, headers: { Cookie: cookie, Origin: `http://localhost:${port}`, "Sec-Fetch-Site": "same-origin" }, timeoutMs: 15_000 },
  );
  if (dnf.reply.status !== 200) throw new Error(`results crowd: the DNF was refused: ${dnf.reply.status} ${dnf.reply.body.slice(0, 200)}`);
  const moved = (f: Follower) => f.window.current?.entries[0]?.row.racerId === finishers[51]!.id;
  for (const deadline = nowMs() + SETTLE_TIMEOUT_MS; nowMs() < deadline && !followers.every(moved); ) await sleep(100);
  const fresh = followers.filter(moved).map((f) => f.fetchedAt - started);
  const counted = { fetches, misses };
  const truth = JSON.stringify((await fetchPage(null)).current?.entries.map((e) => [e.rank, e.row.racerId]));
  const correct = followers.filter((f) => JSON.stringify(f.window.current?.entries.map((e) => [e.rank, e.row.racerId])) === truth).length;
  for (const f of followers) {
    if (f.timer) clearTimeout(f.timer);
    f.ws.close(1000);
  }
  if (fresh.length < FALL_PAGES) console.error(`results crowd: ${FALL_PAGES - fresh.length} page-2 pages never moved after the DNF`);
  return { fresh, correct, ...counted };
}

/** Restarts the demo race with RACERS racers, optionally opens the crowd, posts the finish, and waits for the pages to settle. */
async function finishRace(
  port: number,
  target: Target,
  agent: Agent,
  crowd: { pages: number; fetches: { ms: number; hit: boolean }[] } | null,
): Promise<{ ackP95: number; correct: number }> {
  const { value: demo } = await postJson<DemoRace>({ port, host: "localhost" }, "/_dev/demo-race", { restart: true, racers: RACERS }, { timeoutMs: 120_000 });
  const format = demo.formats.find((f) => f.name === "Results") ?? demo.formats[0]!;
  const jsonPath = (window: ResultsWindow | null) =>
    `/races/${demo.raceId}/results.json?format=${format.id}${window ? `&v=${encodeURIComponent(window.format.version)}` : ""}`;
  const fetchPage = async (window: ResultsWindow | null): Promise<ResultsWindow> => {
    const reply = await requestWithRetry(target, jsonPath(window), { agent, timeoutMs: 15_000 });
    if (reply.status !== 200) throw new Error(`results crowd: GET ${jsonPath(window)}: ${reply.status}`);
    crowd?.fetches.push({ ms: reply.ms, hit: reply.headers["x-edge-cache"] === "hit" });
    return JSON.parse(reply.body) as ResultsWindow;
  };

  const followers: Follower[] = [];
  if (crowd) {
    const first = await fetchPage(null);
    crowd.fetches.length = 0;
    for (let i = 0; i < crowd.pages; i++) followers.push(await follow(port, demo.raceId, first, fetchPage));
  }

  // The mass finish: racer i crosses the line at i × spread / RACERS seconds, posted as it happens, a batch every 250 ms.
  const finish = demo.devices.find((d) => d.name === "Finish reader")!;
  const boot = `bench-crowd-${Date.now()}`;
  const acks: number[] = [];
  const started = nowMs();
  const zero = demo.startTime * 1000 + 20 * 60 * 1_000_000;
  let next = 0;
  let seq = 1;
  while (next < demo.racers.length) {
    const due = Math.min(demo.racers.length, Math.ceil(((nowMs() - started) / 1000 / FINISH_SPREAD_S) * demo.racers.length) + 1);
    const reads = demo.racers
      .slice(next, due)
      .map((racer, k) => ({ seq: seq++, chip: racer.chip, time: zero + (next + k) * Math.round((FINISH_SPREAD_S * 1e6) / RACERS) }));
    next = due;
    if (reads.length > 0) {
      const { reply } = await postJson(
        target,
        `/timing-api/races/${demo.raceId}/reads`,
        { boot, reads },
        { agent, headers: { Authorization: `Bearer ${finish.token}` }, timeoutMs: 15_000 },
      );
      acks.push(reply.ms);
    }
    await sleep(BATCH_EVERY_MS);
  }

  let correct = 0;
  if (followers.length > 0) {
    // Settled: every page has had no fetch pending for a while; then each is compared with a fresh first page.
    const deadline = nowMs() + SETTLE_TIMEOUT_MS;
    while (nowMs() < deadline && followers.some((f) => f.inFlight || f.timer !== null)) await sleep(200);
    await sleep(3_000);
    const truth = await requestWithRetry(target, `/races/${demo.raceId}/results.json?format=${format.id}`, { agent, timeoutMs: 15_000 });
    const expected = (JSON.parse(truth.body) as ResultsWindow).current?.entries.map((e) => [e.rank, e.row.racerId]);
    for (const f of followers) if (JSON.stringify(f.window.current?.entries.map((e) => [e.rank, e.row.racerId])) === JSON.stringify(expected)) correct++;
    for (const f of followers) {
      if (f.timer) clearTimeout(f.timer);
      f.ws.close(1000);
    }
  }
  acks.sort((a, b) => a - b);
  return { ackP95: percentile(acks, 95), correct };
}

/** One spectator's page: the hook's rules (app/hooks/use-live-window.ts) over a Node socket. */
async function follow(
  port: number,
  raceId: string,
  first: ResultsWindow,
  fetchPage: (window: ResultsWindow | null) => Promise<ResultsWindow>,
  announces = false,
): Promise<Follower> {
  const host = demoSites[0].hostname;
  const query = new URLSearchParams({ format: first.format.formatId, since: first.format.version, window: "1" });
  const ws = new WebSocket(`ws://127.0.0.1:${port}/timing-api/races/${raceId}/socket?${query}`, {
    headers: { Host: `${host}:${port}` },
    perMessageDeflate: false,
  });
  const f: Follower = { ws, window: first, timer: null, inFlight: false, again: null, buffered: [], fetchedAt: 0 };
  // As the page does (use-live-window.ts announce): the shard is told what the page shows, then again after each fetch.
  const announce = () => {
    if (announces && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(windowMessageOf(f.window)));
  };
  const apply = (message: RaceServerMessage) => {
    const step = followWindowFrame(f.window, message);
    f.window = step.window;
    if (step.refetch) schedule(step.refetch);
  };
  const load = async () => {
    f.timer = null;
    f.inFlight = true;
    try {
      f.window = await fetchPage(f.window);
      f.fetchedAt = nowMs();
      announce();
      for (const message of f.buffered.splice(0)) apply(message);
    } catch (error) {
      console.error(String(error));
      f.again = "now";
    } finally {
      f.inFlight = false;
      if (f.again) {
        const again = f.again;
        f.again = null;
        f.timer = setTimeout(() => void load(), delay(again));
      }
    }
  };
  const schedule = (refetch: NonNullable<Refetch>) => {
    if (f.inFlight) {
      f.again = f.again === "now" || refetch === "now" ? "now" : "soon";
      return;
    }
    if (f.timer !== null && refetch === "soon") return;
    if (f.timer !== null) clearTimeout(f.timer);
    f.timer = setTimeout(() => void load(), delay(refetch));
  };
  ws.on("message", (data: Buffer, isBinary: boolean) => {
    const message = JSON.parse(isBinary ? inflateRawSync(data).toString("utf8") : data.toString("utf8")) as RaceServerMessage;
    if (f.inFlight) f.buffered.push(message);
    else apply(message);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("results crowd: a socket did not open in time")), OPEN_TIMEOUT_MS);
    ws.once("open", () => {
      clearTimeout(timer);
      announce();
      resolve();
    });
    ws.once("error", reject);
  });
  return f;
}

function delay(refetch: NonNullable<Refetch>): number {
  return refetch === "now" ? Math.random() * REFETCH_NOW_SPREAD_MS : REFETCH_GAP_MS + Math.random() * REFETCH_SPREAD_MS;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
