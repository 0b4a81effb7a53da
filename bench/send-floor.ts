// The send floor: how long one frame takes to reach every socket when a Durable Object does nothing but send it
// (bench/send-floor-worker/worker.ts), with the same spectator processes, the same placement on shards (one per 5,000
// sockets, DEFAULT_SHARD_TARGET) and the same bypass of wrangler's ProxyWorker as the live path's figures
// (bench/timing-api.ts). The platform's `timing_crossing_to_spectators_*` cannot beat this on the same machine:
// the gap between the two is what the platform adds (decision 0088).
import path from "node:path";
import { root, wranglerBin, wranglerDevArgs, wranglerEnv } from "../scripts/wrangler-env.mjs";
import { percentile } from "./http";
import { Audience } from "./live-audience";
import { nowMs, requestWithRetry, sleep } from "./live-http";
import { CpuMeter, findWorkerPort, serverProcesses } from "./live-procs";
import { report } from "./report";
import { startDetached } from "./server";

const LEVELS = [1_000, 10_000];
const ROUNDS = 10;
/** The platform's patch frame for one crossing is a few hundred bytes. */
const FRAME_BYTES = 512;
const SHARD_TARGET = 5_000;
const OPEN_TIMEOUT_MS = 180_000;
const COLLECT_TIMEOUT_MS = 20_000;

const round2 = (n: number) => Math.round(n * 100) / 100;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** Runs the floor's Worker on `port`, measures each level and stops it; false when a figure could not be measured. */
export async function runSendFloor(port: number): Promise<boolean> {
  const stateDir = path.join(root, ".wrangler", `bench-state-${port}`);
  const args = wranglerDevArgs(
    String(port),
    [],
    ["-c", path.join(root, "bench", "send-floor-worker", "wrangler.toml"), "--persist-to", stateDir, "--log-level", "warn"],
  );
  const server = await startDetached(port, wranglerBin, args, { openFiles: 65_536, env: wranglerEnv() as Record<string, string> });
  const audience = new Audience(false, 10);
  try {
    const procs = serverProcesses(server.pid, port);
    // A Host name for requests (live-http adds the port), and the whole Host header for the sockets.
    const host = "127.0.0.1";
    const workerPort = procs.worker === null ? null : await findWorkerPort(procs.worker, host);
    if (workerPort === null) return fail("send floor: the Worker's own workerd socket was not found");
    const target = { port, host, connectPort: workerPort };
    const cpu = new CpuMeter(procs, () => audience.pids());
    for (const sockets of LEVELS) {
      const shards = Math.ceil(sockets / SHARD_TARGET);
      const opened = await audience.grow(sockets, `ws://127.0.0.1:${workerPort}/socket?shards=${shards}`, `${host}:${port}`, OPEN_TIMEOUT_MS);
      if (opened.failed > 0) return fail(`send floor: ${opened.failed} of ${sockets} sockets did not open (${opened.errors[0] ?? ""})`);
      const deliveries: number[] = [];
      const everySocket: number[] = [];
      let missed = 0;
      const cpuStart = cpu.sample();
      for (let round = 0; round < ROUNDS; round++) {
        const marker = `floor-${sockets}-${round}`;
        await audience.arm(marker);
        const posted = nowMs();
        const reply = await requestWithRetry(target, `/blast?shards=${shards}&bytes=${FRAME_BYTES}&marker=${marker}`, {
          method: "POST",
          timeoutMs: COLLECT_TIMEOUT_MS,
        });
        if (reply.status !== 200) return fail(`send floor: the blast answered ${reply.status} ${reply.body.slice(0, 200)}`);
        const { times, missing } = await audience.collect(COLLECT_TIMEOUT_MS);
        missed += missing;
        for (const at of times) deliveries.push(at - posted);
        if (times.length > 0) everySocket.push(Math.max(...times) - posted);
        await sleep(200);
      }
      if (missed > 0) return fail(`send floor: ${missed} deliveries to ${sockets} sockets never arrived within ${COLLECT_TIMEOUT_MS} ms`);
      const used = cpu.since(cpuStart);
      const d = sorted(deliveries);
      const details = {
        sockets,
        shards,
        rounds: everySocket.length,
        frame_bytes: FRAME_BYTES,
        spectators_via: "Worker's workerd socket (ProxyWorker bypassed)",
        every_socket_p50: round2(percentile(sorted(everySocket), 50)),
        every_socket_p95: round2(percentile(sorted(everySocket), 95)),
        worker_cpu_us_per_send: round2(((used.worker ?? 0) * 1e6) / (sockets * ROUNDS)),
        client_cpu_us_per_frame: round2(((used.spectator_clients ?? 0) * 1e6) / (sockets * ROUNDS)),
        cpu_s: used,
        compare_with: `timing_crossing_to_spectators_${sockets}_sockets`,
      };
      report(`send_floor_to_spectators_${sockets}_sockets_p50`, percentile(d, 50), "ms", details);
      report(`send_floor_to_spectators_${sockets}_sockets_p95`, percentile(d, 95), "ms", details);
    }
    return true;
  } catch (error) {
    return fail(`send floor: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await audience.close();
    await server.stop();
  }
}

function fail(line: string): false {
  process.stderr.write(`${line}\n`);
  return false;
}
