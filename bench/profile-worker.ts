// `npx tsx bench/profile-worker.ts [--seconds 5] [--inspector http://127.0.0.1:9229] [--out <tmp>/worker.cpuprofile] [--heap]`:
// a CPU profile of the Worker under `wrangler dev` (npm start, or a bench's server), through the inspector proxy
// wrangler opens on 9229. Start it while the load you want to see runs. It prints the functions with the most
// self time and the most inclusive time, and writes the profile for Chrome's DevTools (Performance, "Load profile").
// With --heap it samples the heap instead: the heap's size before and after, and where the objects still alive
// at the end were allocated (of those allocated while it ran), the sites holding most first; --garbage counts
// what was collected as well. With --snapshot it takes a full heap snapshot after a full collection, writes it
// beside --out (.heapsnapshot, for DevTools' Memory tab) and prints the live heap by constructor.
//
// workerd's own inspector allows one session per isolate and wrangler's proxy holds it, so connect to the proxy.
// Locally the Worker's isolate runs every Durable Object too (race rooms, shards): one profile shows them all.
// Self time of an async function can include the resumption of its awaits; read inclusive times beside it.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { inspect } from "./inspector";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    inspector: { type: "string", default: "http://127.0.0.1:9229" },
    out: { type: "string", default: path.join(tmpdir(), "worker.cpuprofile") },
    top: { type: "string", default: "40" },
    heap: { type: "boolean", default: false },
    // With --heap: count what the collectors freed too, so the sites that make the most garbage show.
    garbage: { type: "boolean", default: false },
    // A full heap snapshot instead (after a full collection): what the live heap is made of, by constructor.
    snapshot: { type: "boolean", default: false },
  },
});
const seconds = Number(values.seconds);
const top = Number(values.top);
if (!(seconds > 0) || !(top > 0)) {
  console.error("--seconds and --top take numbers above 0");
  process.exit(2);
}

interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}
interface HeapRecording {
  before: { usedSize: number; totalSize: number };
  after: { usedSize: number; totalSize: number };
  head: HeapNode;
}

/** Records `seconds` of CPU profile from the first target of the inspector at `base`. */
function recordCpu(base: string): Promise<Profile> {
  return inspect(base, async (call) => {
    await call("Profiler.enable");
    await call("Profiler.setSamplingInterval", { interval: 200 });
    await call("Profiler.start");
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    return (await call<{ profile: Profile }>("Profiler.stop")).profile;
  });
}

/** Samples the heap for `seconds`: its size before and after, and the live objects' allocation sites. */
function recordHeap(base: string): Promise<HeapRecording> {
  return inspect(base, async (call) => {
    const before = await call<{ usedSize: number; totalSize: number }>("Runtime.getHeapUsage");
    await call("HeapProfiler.enable");
    await call("HeapProfiler.startSampling", {
      samplingInterval: 64 * 1024,
      includeObjectsCollectedByMajorGC: values.garbage,
      includeObjectsCollectedByMinorGC: values.garbage,
    });
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const { profile } = await call<{ profile: { head: HeapNode } }>("HeapProfiler.getSamplingProfile", {}, 60_000);
    await call("HeapProfiler.stopSampling", {}, 60_000);
    const after = await call<{ usedSize: number; totalSize: number }>("Runtime.getHeapUsage");
    return { before, after, head: profile.head };
  });
}

/** A full snapshot of the heap after a full collection, as the inspector streams it (JSON text). */
function recordSnapshot(base: string): Promise<string> {
  const chunks: string[] = [];
  return inspect(
    base,
    async (call) => {
      await call("HeapProfiler.enable");
      await call("HeapProfiler.collectGarbage", {}, 120_000);
      await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false }, 600_000);
      return chunks.join("");
    },
    (method, params) => {
      if (method === "HeapProfiler.addHeapSnapshotChunk") chunks.push((params as { chunk: string }).chunk);
    },
  );
}

const label = (frame: CallFrame) => `${frame.functionName || "(anonymous)"} ${frame.url.split("/").at(-1) ?? ""}:${frame.lineNumber + 1}`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** The recording, or exit 1 saying what could not be had (seen: wrangler's proxy hangs up under thousands of sockets). */
async function orExit<T>(recording: Promise<T>, what: string): Promise<T> {
  try {
    return await recording;
  } catch (error) {
    console.error(`profile-worker: no ${what} from ${values.inspector} (${error instanceof Error ? error.message : String(error)}); is wrangler dev running?`);
    process.exit(1);
  }
}

if (values.snapshot) {
  const text = await orExit(recordSnapshot(values.inspector), "heap snapshot");
  const out = values.out.replace(/\.cpuprofile$/, ".heapsnapshot");
  writeFileSync(out, text);
  summariseSnapshot(JSON.parse(text) as HeapSnapshot);
  console.log(`snapshot written to ${out}`);
  process.exit(0);
}

if (values.heap) {
  const heap = await orExit(recordHeap(values.inspector), "heap profile");
  console.log(`heap used ${mib(heap.before.usedSize)} → ${mib(heap.after.usedSize)} (of ${mib(heap.after.totalSize)})`);
  const held = new Map<string, number>();
  const walk = (node: HeapNode) => {
    if (node.selfSize > 0) held.set(label(node.callFrame), (held.get(label(node.callFrame)) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(heap.head);
  console.log(`--- ${values.garbage ? "allocated (alive or collected)" : "still alive"}, by allocation site (sampled, MiB)`);
  for (const [key, bytes] of [...held].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(bytes / 2 ** 20).toFixed(2).padStart(9)}  ${key}`);
  process.exit(0);
}

const profile = await orExit(recordCpu(values.inspector), "profile");
writeFileSync(values.out, JSON.stringify(profile));

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
profile.samples.forEach((sample, i) => {
  const us = profile.timeDeltas[i] ?? 0;
  const leaf = label(byId.get(sample)!.callFrame);
  self.set(leaf, (self.get(leaf) ?? 0) + us);
  // A recursive function is counted once per sample.
  const seen = new Set<string>();
  for (let id: number | undefined = sample; id !== undefined; id = parentOf.get(id)) {
    const key = label(byId.get(id)!.callFrame);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
});
const print = (title: string, times: Map<string, number>) => {
  console.log(`--- ${title} (ms)`);
  for (const [key, us] of [...times].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(us / 1000).toFixed(1).padStart(9)}  ${key}`);
};
print("self", self);
print("inclusive", inclusive);
// The collector's pauses: runs of consecutive samples in it. A long one is a stall every request waits behind.
const pauses: number[] = [];
let run = 0;
profile.samples.forEach((sample, i) => {
  if (byId.get(sample)!.callFrame.functionName === "(garbage collector)") {
    run += profile.timeDeltas[i] ?? 0;
  } else if (run > 0) {
    pauses.push(run);
    run = 0;
  }
});
if (run > 0) pauses.push(run);
pauses.sort((a, b) => b - a);
const ms = (us: number) => (us / 1000).toFixed(1);
console.log(
  `--- garbage collection: ${pauses.length} pauses, ${ms(pauses.reduce((a, b) => a + b, 0))} ms in all, longest ${pauses.slice(0, 8).map(ms).join(", ")} ms`,
);
console.log(`profile written to ${values.out}`);

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** The live heap by kind: objects by constructor, the rest (strings, arrays, code…) by type; most bytes first. */
function summariseSnapshot(snapshot: HeapSnapshot): void {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [number, number, number];
  const kinds = new Map<string, { count: number; bytes: number }>();
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]!] ?? "?";
    const bytes = snapshot.nodes[i + sizeAt]!;
    const key = type === "object" ? snapshot.strings[snapshot.nodes[i + nameAt]!]! : `(${type})`;
    const kind = kinds.get(key) ?? { count: 0, bytes: 0 };
    kind.count += 1;
    kind.bytes += bytes;
    kinds.set(key, kind);
    total += bytes;
  }
  console.log(`heap snapshot: ${(total / 2 ** 20).toFixed(1)} MiB in ${(snapshot.nodes.length / fields.length).toLocaleString("en")} objects`);
  console.log(`--- by kind (MiB, count)`);
  for (const [key, kind] of [...kinds].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top)) {
    console.log(`${(kind.bytes / 2 ** 20).toFixed(2).padStart(9)} ${kind.count.toLocaleString("en").padStart(12)}  ${key.slice(0, 100)}`);
  }
}
