// The racer page's server time in a race of 27,000 racers (issue 23: under 50 ms): the demo race grown to that
// field, every racer through its three laps (a hill split and the lap line, 6 points), then one racer's page
// at a time, spread over the field. Measured from the client on 127.0.0.1, so it includes the local proxy.
import { demoSites } from "../scripts/demo-data";
import type { DemoRace } from "./live-devices";
import { percentile, send } from "./http";
import { report } from "./report";
import { runRacerLists } from "./racer-lists";
import { pageClientJsKb } from "./bundle-size";
import { domNodesAfterLoad, lighthouseMobilePerformance } from "./browser";

const RACERS = 27_000;
const BATCH = 1_000;
const IN_FLIGHT = 2;
const WARMUP = 20;
const REQUESTS = 200;
const RESULTS_WARMUP = 3;
const RESULTS_REQUESTS = 20;

export async function runRacerPage(port: number): Promise<void> {
  const host = demoSites[0].hostname;
  const setup = await send(port, "localhost", "POST", "/_dev/demo-race", JSON.stringify({ restart: true, racers: RACERS }), {
    "Content-Type": "application/json",
  });
  if (setup.status !== 200) throw new Error(`racer page: demo race setup failed: ${setup.status} ${setup.body.slice(0, 200)}`);
  const demo = JSON.parse(setup.body) as DemoRace;
  const format = demo.formats.find((f) => f.name === "Results") ?? demo.formats[0]!;
  const started = performance.now();
  await postLaps(port, demo);
  console.error(`racer page: ${demo.racers.length} racers timed through 3 laps in ${Math.round(performance.now() - started)} ms`);

  // One racer's page at a time, spread over the field.
  const paths = Array.from(
    { length: REQUESTS },
    (_, i) => `/races/${demo.raceId}/racers/${demo.racers[Math.floor((i * demo.racers.length) / REQUESTS)]!.id}?format=${format.id}`,
  );
  const get = async (path: string) => {
    const reply = await send(port, host, "GET", path);
    if (reply.status !== 200 || !reply.body.includes("racer-splits")) throw new Error(`racer page: GET ${path}: ${reply.status}`);
    return reply.ms;
  };
  for (let i = 0; i < WARMUP; i++) await get(paths[i]!);
  const times: number[] = [];
  for (const path of paths) times.push(await get(path));
  times.sort((a, b) => a - b);
  report("racer page server time p50 (27,000 racers)", percentile(times, 50), "ms");
  report("racer page server time p95 (27,000 racers)", percentile(times, 95), "ms");
  await measureResultsPage(port, host, `/races/${demo.raceId}?format=${format.id}`);
  await runRacerLists(port, demo.raceId, demo.racers.length);
}

/** The results page of the same race: its HTML, server time and JavaScript, and the DOM it builds in Chromium. */
async function measureResultsPage(port: number, host: string, path: string): Promise<void> {
  const times: number[] = [];
  let html = "";
  for (let i = 0; i < RESULTS_WARMUP + RESULTS_REQUESTS; i++) {
    const reply = await send(port, host, "GET", path);
    if (reply.status !== 200 || !reply.body.includes("results-table")) throw new Error(`results page: GET ${path}: ${reply.status}`);
    if (i >= RESULTS_WARMUP) times.push(reply.ms);
    html = reply.body;
  }
  times.sort((a, b) => a - b);
  report("results page HTML (27,000 racers)", Math.round(Buffer.byteLength(html) / 1024), "KB");
  report("results page server time p50 (27,000 racers)", percentile(times, 50), "ms");
  report("results page server time p95 (27,000 racers)", percentile(times, 95), "ms");
  report("results page JavaScript gzip (27,000 racers)", Math.round(pageClientJsKb(html) * 10) / 10, "KiB");
  report("results page DOM nodes after load (27,000 racers)", await domNodesAfterLoad(`http://${host}:${port}${path}`), "nodes");
  report("results page Lighthouse mobile performance (27,000 racers)", lighthouseMobilePerformance(`http://${host}:${port}${path}`), "score");
}

/** Each racer's three laps at the hill and the lap line, posted by the two readers in batches, a few at a time. */
async function postLaps(port: number, demo: DemoRace): Promise<void> {
  const boot = `bench-racer-page-${Date.now()}`;
  const batches: { token: string; reads: { seq: number; chip: string; time: number }[] }[] = [];
  for (const [name, fraction] of [
    ["Hill reader", 0.5],
    ["Finish reader", 1],
  ] as const) {
    const device = demo.devices.find((d) => d.name === name);
    if (!device) throw new Error(`racer page: the demo race has no ${name}`);
    let seq = 1;
    let reads: { seq: number; chip: string; time: number }[] = [];
    for (let lap = 0; lap < 3; lap++) {
      demo.racers.forEach((racer, i) => {
        // Laps of 10 to 15 minutes, different for each racer and lap, so places change from lap to lap.
        const lapStart = [0, 1, 2].slice(0, lap).reduce((sum, k) => sum + lapSeconds(i, k), 0);
        const at = lapStart + fraction * lapSeconds(i, lap);
        reads.push({ seq: seq++, chip: racer.chip, time: demo.startTime * 1000 + Math.round(at * 1_000_000) });
        if (reads.length === BATCH) {
          batches.push({ token: device.token, reads });
          reads = [];
        }
      });
    }
    if (reads.length > 0) batches.push({ token: device.token, reads });
  }
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      const post = () =>
        send(port, "localhost", "POST", `/timing-api/races/${demo.raceId}/reads`, JSON.stringify({ boot, reads: batch.reads }), {
          "Content-Type": "application/json",
          Authorization: `Bearer ${batch.token}`,
        });
      let reply = await post();
      // A resent batch is harmless (its reads are known by device, boot and seq); a restarting local Worker answers 503.
      for (let retry = 0; reply.status >= 500 && retry < 5; retry++) {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        reply = await post();
      }
      if (reply.status !== 200) throw new Error(`racer page: reads refused: ${reply.status} ${reply.body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

function lapSeconds(racer: number, lap: number): number {
  return 600 + ((racer * 7919 + lap * 104_729) % 300);
}
