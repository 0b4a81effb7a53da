// A marathon's start list on race morning (decision 0098): 50,000 racers in one wave, the public list read by
// a crowd while the finish line's devices post, and the organiser's report and start order pages. Each figure
// is a p50 or p95 of several requests, each with a deadline (bench/http.ts) and resent after a 502 or 503.
import { demoSites, demoUsers } from "../scripts/demo-data";
import type { DemoRace } from "./live-devices";
import { percentile, send, signInCookie, type BenchResponse } from "./http";
import { timedGet } from "./racer-lists";
import { report } from "./report";

const RACERS = 50_000;
/** Changes that each start a new list revision, the first view after each timed (the slow one: built at the room). */
const CHANGES = 3;
const REPEATS = 10;
const SEARCHES = ["Berg", "Lindqvist", "4711", "Anna", "Tremblay"];
/** Views a second in the paced crowd (a race morning's peak at one edge), then browsers reading with no pause. */
const CROWD_RATE = 20;
const CROWD = 100;
const CROWD_MS = 10_000;
/** The finish line during the crowd: a batch of 50 reads every 100 ms, its acknowledgements timed. */
const READS_PER_BATCH = 50;
const BATCH_EVERY_MS = 100;

export async function runStartList(port: number): Promise<void> {
  const host = demoSites[0].hostname;
  const field = RACERS.toLocaleString("en");
  const grown = await post(port, "/_dev/demo-race", { restart: true, racers: RACERS, wave: true, publicStartList: true });
  const demo = JSON.parse(grown) as DemoRace;
  const list = `/races/${demo.raceId}/startlist`;
  const pages = pageCount((await getOk(port, host, list)).body);
  console.error(`start list: ${demo.racers.length} racers, ${pages} pages`);

  // A setting saved moves the list's revision (race storage step 10), as an organiser's edit does.
  const change = () => post(port, "/_dev/demo-race", { publicStartList: true, credentials: false });
  const firstViews: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    await change();
    firstViews.push(await timed(port, host, list));
  }
  report(`public start list, first view after a change p50 (${field} racers)`, median(firstViews), "ms");
  const again: number[] = [];
  for (let i = 0; i < REPEATS; i++) again.push(await timed(port, host, list));
  report(`public start list, same page again p50 (${field} racers)`, median(again), "ms");
  const others: number[] = [];
  for (let p = 2; p < 2 + REPEATS && p <= pages; p++) others.push(await timed(port, host, `${list}?page=${p}`));
  report(`public start list, another page p50 (${field} racers)`, median(others), "ms");
  const searches: number[] = [];
  for (const q of SEARCHES) searches.push(await timed(port, host, `${list}?q=${encodeURIComponent(q)}`));
  report(`public start list, a search p50 (${field} racers)`, median(searches), "ms");
  const pdf = [await timed(port, host, `${list}.pdf`), await timed(port, host, `${list}.pdf`)];
  report(`public start list PDF, first (${field} racers)`, pdf[0]!, "ms");
  report(`public start list PDF, again (${field} racers)`, pdf[1]!, "ms");

  await crowdWithDevices(port, host, demo, list, pages, field);

  const cookie = await signInCookie(port, "localhost", demoUsers[1]);
  const organiserFirst: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    await change();
    const reply = await timedGet(port, `/race/${demo.raceId}/admin/reports/start-list`, cookie);
    if (reply.status !== 200) throw new Error(`organiser's start list report: ${reply.status}`);
    organiserFirst.push(reply.ms);
  }
  report(`organiser's start list report, first view after a change p50 (${field} racers)`, median(organiserFirst), "ms");
  for (const [name, path] of [
    ["organiser's start list report", `/race/${demo.raceId}/admin/reports/start-list`],
    ["organiser's chip rack report", `/race/${demo.raceId}/admin/reports/chip-rack`],
    ["organiser's start order page", `/race/${demo.raceId}/admin/startorder`],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < 1 + 3; i++) {
      const reply = await timedGet(port, path, cookie);
      if (reply.status !== 200) throw new Error(`${name}: GET ${path}: ${reply.status} ${reply.body.slice(0, 200)}`);
      if (i > 0) times.push(reply.ms);
    }
    report(`${name} p50 (${field} racers)`, median(times), "ms");
  }
}

/**
 * The crowd on race morning, while one finish reader posts its batches on a fixed schedule: first a paced crowd
 * (CROWD_RATE views a second, each of a random page, timed from when it was due), then as many views as
 * CROWD browsers get with no pause (what this one process serves). Crossings do not move the list's
 * revision, so after each page's first read the crowd is served from the edge.
 */
async function crowdWithDevices(port: number, host: string, demo: DemoRace, list: string, pages: number, field: string): Promise<void> {
  const reader = demo.devices.find((d) => d.name === "Finish reader");
  if (!reader) throw new Error("start list: the demo race has no Finish reader");
  const boot = `bench-start-list-${Date.now()}`;
  let seq = 1;
  const randomPage = (n: number) => `${list}?page=${1 + ((n * 7919) % pages)}`;
  /** Calls `task` every `everyMs` for `ms`, each timed from when it was due (so a held-back one counts its wait). */
  const paced = async (ms: number, everyMs: number, task: (n: number) => Promise<void>): Promise<number[]> => {
    const times: number[] = [];
    const pending: Promise<void>[] = [];
    const until = performance.now() + ms;
    let n = 0;
    for (let due = performance.now(); due < until; due += everyMs) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      const at = due;
      pending.push(task(n++).then(() => void times.push(performance.now() - at)));
    }
    await Promise.all(pending);
    return times.sort((a, b) => a - b);
  };
  const batch = () => {
    const reads = Array.from({ length: READS_PER_BATCH }, () => {
      const racer = demo.racers[seq % demo.racers.length]!;
      return { seq: seq++, chip: racer.chip, time: demo.startTime * 1000 + seq * 1000 };
    });
    return sendRetrying(port, "localhost", `/timing-api/races/${demo.raceId}/reads`, JSON.stringify({ boot, reads }), reader.token);
  };
  const view = async (n: number) => void (await getOk(port, host, randomPage(n)));

  const quiet = await paced(CROWD_MS / 2, BATCH_EVERY_MS, batch);
  report(`finish reader acknowledgement p95, no crowd (${field} racers)`, percentile(quiet, 95), "ms");

  const [acks, views] = await Promise.all([paced(CROWD_MS, BATCH_EVERY_MS, batch), paced(CROWD_MS, 1000 / CROWD_RATE, view)]);
  report(`public start list, ${CROWD_RATE} views a second: view p95 (${field} racers)`, percentile(views, 95), "ms");
  report(`finish reader acknowledgement p95, ${CROWD_RATE} start list views a second (${field} racers)`, percentile(acks, 95), "ms");

  let served = 0;
  const until = performance.now() + CROWD_MS;
  const browser = async (n: number) => {
    for (let i = 0; performance.now() < until; i++, served++) await view(n * 1000 + i);
  };
  await Promise.all(Array.from({ length: CROWD }, (_, n) => browser(n)));
  report(`public start list, ${CROWD} browsers with no pause: views per second (${field} racers)`, Math.round(served / (CROWD_MS / 1000)), "views/s");
}

async function sendRetrying(port: number, host: string, path: string, body: string, token: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const reply = await send(port, host, "POST", path, body, { "Content-Type": "application/json", Authorization: `Bearer ${token}` });
    if (reply.status === 200) return;
    if (reply.status < 500 || attempt >= 4) throw new Error(`start list: reads refused: ${reply.status} ${reply.body.slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
  }
}

async function post(port: number, path: string, body: unknown): Promise<string> {
  const reply = await send(port, "localhost", "POST", path, JSON.stringify(body), { "Content-Type": "application/json" });
  if (reply.status !== 200) throw new Error(`start list: POST ${path}: ${reply.status} ${reply.body.slice(0, 200)}`);
  return reply.body;
}

async function getOk(port: number, host: string, path: string): Promise<BenchResponse> {
  const reply = await send(port, host, "GET", path);
  if (reply.status !== 200) throw new Error(`start list: GET ${path}: ${reply.status} ${reply.body.slice(0, 200)}`);
  return reply;
}

async function timed(port: number, host: string, path: string): Promise<number> {
  return (await getOk(port, host, path)).ms;
}

/** The page count from the page's own line, "Page X of Y, N racers." */
function pageCount(html: string): number {
  const match = /Page \d+ of (\d+),/.exec(html);
  if (!match) throw new Error("start list: the first page names no page count (is the field over one page?)");
  return Number(match[1]);
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}
