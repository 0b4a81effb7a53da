// `npm run simulate`: restarts the demo race now and feeds it chip reads through the timing API, as the
// readers at a mass-start, three-lap ski race would (the hill, a precall 300 m before the stadium, the
// stadium): several reads per tag per pass, sent in batches. The announcer screen is at /races/<id>/announcer.
// Watch it at http://demo.localhost:8787/races/a5b6c7d8-4f1c-4a9b-8e85-5c6d7e8f9a01 (start npm start first).
import { parseArgs } from "node:util";
import { send } from "../bench/http";
import { mulberry32 } from "../core/random/seeded";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    "lap-seconds": { type: "string", default: "40" },
    "batch-ms": { type: "string", default: "500" },
  },
});
const port = Number(values.port);
const lapSeconds = Number(values["lap-seconds"]);
const batchMs = Number(values["batch-ms"]);
// The demo course ignores a racer passing the same point again within 10 s (its minimum split, the start counted
// at the finish line), and the fastest simulated lap is 0.85 × 0.95 of --lap-seconds: a shorter lap loses laps.
const SHORTEST_LAP_SECONDS = 13;
if (!Number.isFinite(lapSeconds) || lapSeconds < SHORTEST_LAP_SECONDS) {
  console.error(
    `--lap-seconds must be at least ${SHORTEST_LAP_SECONDS}: the demo course takes a pass within 10 s of the last one at the same line as the same pass, so shorter laps would not count.`,
  );
  process.exit(2);
}
if (!Number.isInteger(port) || port <= 0 || !Number.isFinite(batchMs) || batchMs <= 0) {
  console.error("--port takes a port number and --batch-ms a number of milliseconds above 0.");
  process.exit(2);
}

interface Demo {
  raceId: string;
  startTime: number;
  devices: { id: string; name: string; token: string }[];
  racers: { bib: number; chip: string }[];
}

interface Read {
  device: number;
  chip: string;
  at: number;
}

const setup = await send(port, "localhost", "POST", "/_dev/demo-race", JSON.stringify({ restart: true }), { "Content-Type": "application/json" }).catch(
  (error: unknown) => ({ status: 0, body: String(error) }),
);
if (setup.status !== 200) {
  console.error(`Could not set up the demo race (${setup.status}): ${setup.body}\nIs npm start running?`);
  process.exit(1);
}
const demo = JSON.parse(setup.body) as Demo;
const deviceIndex = (name: string) => demo.devices.findIndex((d) => d.name === name);
// A demo race set up before the precall reader existed gets it from /_dev/demo-race; -1 leaves it out.
const [finish, hill, precall] = [deviceIndex("Finish reader"), deviceIndex("Hill reader"), deviceIndex("Precall reader")];
// Seeded, so every run of the simulator races the same way.
const rnd = mulberry32(42);
const reads: Read[] = [];
for (const racer of demo.racers) {
  const pace = lapSeconds * 1000 * (0.85 + rnd() * 0.4);
  let at = demo.startTime;
  for (let lap = 1; lap <= 3; lap++) {
    const lapTime = pace * (0.95 + rnd() * 0.1);
    for (const [device, fraction] of [
      [hill, 0.45],
      [precall, 0.85],
      [finish, 1],
    ] as const) {
      if (device < 0) continue;
      const pass = at + lapTime * fraction;
      // A tag is seen 2 to 4 times as it crosses the antenna field.
      const count = 2 + Math.floor(rnd() * 3);
      for (let i = 0; i < count; i++) reads.push({ device, chip: racer.chip, at: Math.round(pass + i * 300 + rnd() * 200) });
    }
    at += lapTime;
  }
}
reads.sort((a, b) => a.at - b.at);

const seqs = demo.devices.map(() => 0);
// Each run is a new boot of the readers: their sequence numbers start again from 1 (docs/api/timing-api.md).
const boot = `sim-${Date.now().toString(36)}`;
let sent = 0;
console.log(
  `Demo race restarts at ${new Date(demo.startTime).toLocaleTimeString()}: ${demo.racers.length} racers, 3 laps of about ${lapSeconds} s, ${reads.length} chip reads.`,
);
console.log(`Watch: http://demo.localhost:${port}/races/${demo.raceId}`);
console.log(`Announcer screen (sign in as the demo admin first): http://localhost:${port}/races/${demo.raceId}/announcer`);

async function post(device: number, batch: Read[]): Promise<void> {
  const body = { boot, reads: batch.map((r) => ({ seq: ++seqs[device]!, chip: r.chip, time: r.at * 1000 })) };
  // A failed post is sent again with the same sequence numbers; the race ignores what it already has.
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await send(port, "localhost", "POST", `/timing-api/races/${demo.raceId}/reads`, JSON.stringify(body), {
        "Content-Type": "application/json",
        Authorization: `Bearer ${demo.devices[device]!.token}`,
      });
      if (response.status === 200) return;
      console.error(`  ${response.status}: ${response.body}`);
      // A refusal (4xx) is not made right by sending the same batch again.
      if (response.status >= 400 && response.status < 500) process.exit(1);
    } catch (error) {
      console.error(`  send failed (${String(error)}), retrying`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * attempt, 5000)));
  }
}

while (sent < reads.length) {
  const now = Date.now();
  const due: Read[] = [];
  while (sent < reads.length && reads[sent]!.at <= now) due.push(reads[sent++]!);
  for (let device = 0; device < demo.devices.length; device++) {
    const batch = due.filter((r) => r.device === device);
    if (batch.length > 0) await post(device, batch);
  }
  if (due.length > 0) process.stdout.write(`\r${sent} of ${reads.length} reads sent`);
  await new Promise((resolve) => setTimeout(resolve, batchMs));
}
console.log("\nAll reads sent. The race is over.");
