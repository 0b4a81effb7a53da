// `npm run bench -- --only heap`: what a race room holds in workerd
// itself, not in Node (bench/timing-engine.ts): the built Worker under `wrangler dev`, the demo race grown to
// `--racers` racers, each read 12 times (three laps of the hill and the stadium, every pass read twice) by
// the race's own readers, then the room reset as an eviction does and woken by one more read, so it loads the
// whole race from storage. The live heap after a full collection, read through wrangler's inspector on 9229,
// against the same heap with the 60-racer demo: the figure is the difference. Decisions 0095 and 0096.
import { inspect } from "./inspector";
import { Device, type DemoRace, type Read } from "./live-devices";
import { nowMs, postJson, type Target } from "./live-http";
import { report } from "./report";
import { startServer } from "./server";

/** wrangler's inspector proxy, which the bench server opens on its default port. */
const INSPECTOR = "http://127.0.0.1:9229";
const LAPS = 3;
const BATCH = 100;
const IN_FLIGHT = 4;
const SECOND_US = 1_000_000;

/** The live heap after a full collection, in MiB. */
function liveHeapMib(): Promise<number> {
  return inspect(INSPECTOR, async (call) => {
    await call("HeapProfiler.enable");
    await call("HeapProfiler.collectGarbage", {}, 120_000);
    const usage = await call<{ usedSize: number }>("Runtime.getHeapUsage");
    return usage.usedSize / 2 ** 20;
  });
}

/** Every racer's reads at one timing point: a pass each lap, read twice 0.3 s apart (inside the course's min split). */
function readsAt(racers: DemoRace["racers"], startUs: number, lapFraction: number): Read[] {
  const reads: Read[] = [];
  racers.forEach((racer, i) => {
    const lapUs = (600 + ((i * 7919) % 240)) * SECOND_US;
    for (let lap = 0; lap < LAPS; lap++) {
      const time = startUs + 30 * SECOND_US + Math.round((lap + lapFraction) * lapUs) + i * 1_000;
      reads.push({ chip: racer.chip, time }, { chip: racer.chip, time: time + 300_000 });
    }
  });
  return reads.sort((a, b) => a.time - b.time);
}

/** Posts `reads` from `device` in batches of 100, a few at a time; every batch must be acknowledged. */
async function postAll(target: Target, raceId: string, device: Device, reads: Read[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < reads.length) {
      const batch = device.batch(reads.slice(next, next + BATCH));
      next += BATCH;
      const { reply } = await device.post(target, raceId, batch);
      if (reply.status !== 200) throw new Error(`${device.name}: a batch answered ${reply.status}: ${reply.body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

async function measure(target: Target, racerCount: number): Promise<void> {
  const setup = { timeoutMs: 600_000, attempts: 3 };
  await postJson<DemoRace>(target, "/_dev/demo-race", { restart: true }, setup);
  const base = await liveHeapMib();
  const demo = (await postJson<DemoRace>(target, "/_dev/demo-race", { racers: racerCount }, setup)).value;
  const deviceOf = (name: string) => {
    const found = demo.devices.find((d) => d.name === name);
    if (!found?.token) throw new Error(`the demo race has no ${name} with a credential`);
    return new Device(name, found.token, IN_FLIGHT);
  };
  const startUs = demo.startTime * 1000;
  const started = nowMs();
  const streams: [Device, Read[]][] = [
    [deviceOf("Hill reader"), readsAt(demo.racers, startUs, 0.45)],
    [deviceOf("Finish reader"), readsAt(demo.racers, startUs, 1)],
  ];
  await Promise.all(streams.map(([device, reads]) => postAll(target, demo.raceId, device, reads)));
  const readCount = streams.reduce((sum, [, reads]) => sum + reads.length, 0);
  console.error(`room-heap: ${demo.racers.length} racers, ${readCount} reads posted in ${((nowMs() - started) / 1000).toFixed(0)} s`);
  const running = await liveHeapMib();
  // As a deploy or an eviction leaves it: the room loads every racer and the whole log from storage on its next read.
  await postJson(target, "/_dev/demo-race", { evict: true }, { timeoutMs: 60_000, attempts: 3 });
  const [waker] = streams[0]!;
  const { reply } = await waker.post(target, demo.raceId, waker.batch([{ chip: demo.racers[0]!.chip, time: startUs + 3 * 3600 * SECOND_US - SECOND_US }]));
  if (reply.status !== 200) throw new Error(`the read that wakes the room answered ${reply.status}`);
  const woken = await liveHeapMib();
  for (const [device] of streams) device.close();
  const common = { racers: demo.racers.length, reads: readCount, isolate_limit_mib: 128, base_heap_mib: round(base), runtime: "workerd (wrangler dev)" };
  report(`raceroom_workerd_heap_${racerCount}_racers_woken`, woken - base, "MiB", { ...common, note: "loaded from storage after an eviction" });
  report(`raceroom_workerd_heap_${racerCount}_racers_after_ingest`, running - base, "MiB", { ...common, note: "the room that took the reads live" });
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Starts its own server on `port` (the built Worker, fresh state) and stops it; false when the figure could not be measured. */
export async function runRoomHeap(port: number, racerCount = 50_000): Promise<boolean> {
  const server = await startServer(port);
  try {
    await measure({ port, host: "localhost" }, racerCount);
    return true;
  } catch (error) {
    console.error(`room-heap: NOT MEASURED: ${String(error)}`);
    return false;
  } finally {
    await server.stop();
  }
}
