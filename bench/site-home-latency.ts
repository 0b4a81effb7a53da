// Latency of the demo site's home page (tenant lookup, D1 query, React render) under a short local load.
import { request } from "node:http";
import { pageClientJsKb } from "./bundle-size";
import { report } from "./report";
import { startServer } from "./server";
import { demoRaces } from "../scripts/demo-data";

const PORT = 8798;
const raceId = demoRaces(Date.now())[0]!.id;
const WARMUP = 50;
const SERIAL_REQUESTS = 200;
const REQUESTS = 1_000;
const CONCURRENCY = 10;

/** node:http, because fetch refuses to set the Host header that selects the tenant. */
function get(host: string, path = "/"): Promise<{ ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: "127.0.0.1", port: PORT, path, headers: { Host: `${host}:${PORT}` }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        res.statusCode === 200
          ? resolve({ ms: performance.now() - started, body: Buffer.concat(chunks).toString("utf8") })
          : reject(new Error(`status ${res.statusCode}`)),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export async function runSiteHomeLatency(): Promise<void> {
  const server = await startServer(PORT);
  try {
    const home = await get("demo.localhost");
    report("site_home_client_js_gzip", pageClientJsKb(home.body), "KiB");
    report("main_home_client_js_gzip", pageClientJsKb((await get("localhost")).body), "KiB");
    report("race_page_client_js_gzip", pageClientJsKb((await get("demo.localhost", `/races/${raceId}`)).body), "KiB");
    for (let i = 0; i < WARMUP; i++) await get("demo.localhost");
    const serial: number[] = [];
    for (let i = 0; i < SERIAL_REQUESTS; i++) serial.push((await get("demo.localhost")).ms);
    serial.sort((a, b) => a - b);
    report("site_home_latency_serial_p50", percentile(serial, 50), "ms", { requests: SERIAL_REQUESTS, concurrency: 1 });
    report("site_home_latency_serial_p95", percentile(serial, 95), "ms", { requests: SERIAL_REQUESTS, concurrency: 1 });
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < REQUESTS) {
        next++;
        latencies.push((await get("demo.localhost")).ms);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const load = { requests: REQUESTS, concurrency: CONCURRENCY };
    report("site_home_latency_p50", percentile(latencies, 50), "ms", load);
    report("site_home_latency_p95", percentile(latencies, 95), "ms", load);
    report("site_home_latency_p99", percentile(latencies, 99), "ms", load);
    report("site_home_throughput", REQUESTS / seconds, "req/s", load);
  } finally {
    await server.stop();
  }
}
