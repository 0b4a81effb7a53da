// The timing API through `wrangler dev`: reads accepted durably per second by one race (batches of 100),
// and the delay from a batch's acknowledgement to its rows arriving on 1,000 spectator sockets.
import WebSocket from "ws";
import { percentile, send } from "./http";
import { report } from "./report";

const HOST = "localhost";
const RACERS = Number(process.env.BENCH_RACERS ?? 10000);
const BATCH = 100;
const BATCHES = 300;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const ROUNDS = 20;
const SECOND_US = 1_000_000;

interface Demo {
  raceId: string;
  startTime: number;
  devices: { id: string; name: string; token: string }[];
  formats: { id: string; name: string }[];
  racers: { bib: number; chip: string }[];
}

export async function runTimingApi(port: number): Promise<void> {
  const setup = await send(port, HOST, "POST", "/_dev/demo-race", JSON.stringify({ restart: true, racers: RACERS }), { "Content-Type": "application/json" });
  if (setup.status !== 200) throw new Error(`demo race setup failed: ${setup.status} ${setup.body}`);
  const demo = JSON.parse(setup.body) as Demo;
  const finish = demo.devices.find((d) => d.name === "Finish reader")!;
  const hill = demo.devices.find((d) => d.name === "Hill reader")!;
  const startUs = demo.startTime * 1000;
  // The fan-out rounds time racers no earlier read has touched, so every read of theirs changes a row.
  const fresh = demo.racers.slice(-ROUNDS * 10);
  const busy = demo.racers.slice(0, -ROUNDS * 10);
  let seq = 0;
  const batchOf = (size: number, offsetSeconds: number) => ({
    reads: Array.from({ length: size }, (_, k) => {
      const racer = busy[(seq + k * 97) % busy.length]!;
      return { seq: ++seq, chip: racer.chip, time: startUs + Math.round((offsetSeconds + k / 100) * SECOND_US) };
    }),
  });
  const post = async (body: unknown, device = finish) => {
    const reply = await send(port, HOST, "POST", `/timing-api/races/${demo.raceId}/reads`, JSON.stringify(body), { "Content-Type": "application/json", Authorization: `Bearer ${device.token}` });
    if (reply.status !== 200) throw new Error(`reads refused: ${reply.status} ${reply.body}`);
    return JSON.parse(reply.body) as { accepted: number };
  };

  // Throughput: four devices' worth of posting, each batch acknowledged only once it is written.
  const bodies = Array.from({ length: BATCHES }, (_, b) => batchOf(BATCH, 60 + b * 2));
  let next = 0;
  let accepted = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) {
        // Await first, then add: `accepted += await …` reads the total before the await and loses updates.
        const receipt = await post(bodies[next++]!);
        accepted += receipt.accepted;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // Every read has its own sequence number, so each must be acknowledged as newly written.
  if (accepted !== BATCH * BATCHES) throw new Error(`expected ${BATCH * BATCHES} reads accepted, got ${accepted}`);
  report("timing_reads_accepted_per_second", accepted / seconds, "reads/s", { batch: BATCH, batches: BATCHES, concurrency: CONCURRENCY, racers: RACERS, target: 5000 });

  // Fan-out: 1,000 spectators follow the results format; each round posts a batch and times its arrival.
  const format = demo.formats.find((f) => f.name === "Results")!;
  const probe = await openSpectator(port, demo.raceId, format.id, null);
  const version = probe.version;
  probe.ws.close(1000);
  const spectators: Spectator[] = [];
  for (let i = 0; i < SOCKETS; i += 50) spectators.push(...(await Promise.all(Array.from({ length: Math.min(50, SOCKETS - i) }, () => openSpectator(port, demo.raceId, format.id, version)))));
  const delays: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const arrived = spectators.map((s) => s.nextRows());
    const reads = fresh.slice(round * 10, round * 10 + 10).map((racer, k) => ({ seq: 1_000_000 + round * 10 + k, chip: racer.chip, time: startUs + (300 + k) * SECOND_US }));
    await post({ reads }, hill);
    const acknowledged = performance.now();
    for (const at of await Promise.all(arrived)) delays.push(at - acknowledged);
  }
  delays.sort((a, b) => a - b);
  report(`ack_to_${SOCKETS}_spectators_p50`, percentile(delays, 50), "ms", { sockets: SOCKETS, rounds: ROUNDS, racers: RACERS, push_delay_ms: 75 });
  report(`ack_to_${SOCKETS}_spectators_p95`, percentile(delays, 95), "ms", { sockets: SOCKETS, rounds: ROUNDS, racers: RACERS, target: 250 });
  for (const s of spectators) s.ws.close(1000);
}

interface Spectator {
  ws: WebSocket;
  version: string;
  nextRows: () => Promise<number>;
}

function openSpectator(port: number, raceId: string, formatId: string, since: string | null): Promise<Spectator> {
  const query = `format=${formatId}${since ? `&since=${encodeURIComponent(since)}` : ""}`;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/timing-api/races/${raceId}/socket?${query}`, { headers: { Host: `${HOST}:${port}` } });
  let waiting: ((at: number) => void) | null = null;
  return new Promise((resolve, reject) => {
    ws.on("error", reject);
    ws.on("message", (data: Buffer) => {
      const text = data.toString();
      // Only the frame type matters here; a 10,000-row snapshot is not worth parsing.
      if (text.startsWith('{"type":"rows"')) {
        waiting?.(performance.now());
        waiting = null;
      } else if (text.startsWith('{"type":"hello"')) {
        const hello = JSON.parse(text) as { version: string };
        resolve({ ws, version: hello.version, nextRows: () => new Promise<number>((r) => (waiting = r)) });
      }
    });
  });
}
