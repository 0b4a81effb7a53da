// Latency of the demo site's home page under a short local load: from the edge cache (anonymous, decision 0053)
// and rendered (tenant lookup, D1 query, React render; a request with a cookie is never served from the cache).
import { demoRaces } from "../scripts/demo-data";
import { pageClientJsKb } from "./bundle-size";
import { percentile, send } from "./http";
import { report } from "./report";

const WARMUP = 50;
const SERIAL_REQUESTS = 200;
const REQUESTS = 1_000;
const CONCURRENCY = 10;

export async function runSiteHomeLatency(port: number): Promise<void> {
  const get = async (host: string, path = "/", headers: Record<string, string> = {}) => {
    const response = await send(port, host, "GET", path, undefined, headers);
    if (response.status !== 200) throw new Error(`GET ${host}${path}: ${response.status}`);
    return response;
  };
  const raceId = demoRaces(Date.now())[0]!.id;
  report("site_home_client_js_gzip", pageClientJsKb((await get("demo.localhost")).body), "KiB");
  report("main_home_client_js_gzip", pageClientJsKb((await get("localhost")).body), "KiB");
  report("race_page_client_js_gzip", pageClientJsKb((await get("demo.localhost", `/races/${raceId}`)).body), "KiB");
  report("login_page_client_js_gzip", pageClientJsKb((await get("localhost", "/login")).body), "KiB");

  for (let i = 0; i < WARMUP; i++) await get("demo.localhost");
  const serial: number[] = [];
  for (let i = 0; i < SERIAL_REQUESTS; i++) serial.push((await get("demo.localhost")).ms);
  serial.sort((a, b) => a - b);
  report("site_home_latency_serial_p50", percentile(serial, 50), "ms", { requests: SERIAL_REQUESTS, concurrency: 1 });
  report("site_home_latency_serial_p95", percentile(serial, 95), "ms", { requests: SERIAL_REQUESTS, concurrency: 1 });
  // A request with a cookie is never answered from the edge cache (decision 0053): the page rendered each time.
  const uncached: number[] = [];
  for (let i = 0; i < SERIAL_REQUESTS; i++) uncached.push((await get("demo.localhost", "/", { Cookie: "bench=1" })).ms);
  uncached.sort((a, b) => a - b);
  report("site_home_uncached_serial_p50", percentile(uncached, 50), "ms", { requests: SERIAL_REQUESTS, concurrency: 1 });
  report("site_home_uncached_serial_p95", percentile(uncached, 95), "ms", { requests: SERIAL_REQUESTS, concurrency: 1 });

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
}
