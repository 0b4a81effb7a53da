// The pages that read a whole field, in the race the racer page bench grew (bench/racer-page.ts): the admin
// racers list (a page, a search, its CSV), the start order page and the public start list, each read by the
// race's coach a few times after one warm-up. Decision 0097 has their figures at 50,000 racers.
import { demoUsers } from "../scripts/demo-data";
import { percentile, send, signInCookie, type BenchResponse } from "./http";
import { report } from "./report";

const HOST = "localhost";
const TIMEOUT_MS = 30_000;
const WARMUP = 1;
const REQUESTS = 5;

/** One request with a deadline, sent again after a transient failure (a refused connection, a 502 or 503). */
export async function timedGet(port: number, path: string, cookie: string): Promise<BenchResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await Promise.race([
        send(port, HOST, "GET", path, undefined, { Cookie: cookie }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS / 1000} s: ${path}`)), TIMEOUT_MS)),
      ]);
      if ((response.status === 502 || response.status === 503) && attempt < 2) continue;
      return response;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
}

export async function runRacerLists(port: number, raceId: string, racers: number): Promise<void> {
  const cookie = await signInCookie(port, HOST, demoUsers[1]);
  const field = racers.toLocaleString("en");
  const pages = [
    ["racers list page 3", `/race/${raceId}/admin/racers?page=3`],
    ["racers list search", `/race/${raceId}/admin/racers?q=Berg&page=2`],
    ["racers list CSV", `/race/${raceId}/admin/racers/csv?q=Berg`],
    ["start order page", `/race/${raceId}/admin/startorder`],
    ["public start list", `/races/${raceId}/startlist`],
  ] as const;
  for (const [name, path] of pages) {
    const times: number[] = [];
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      const reply = await timedGet(port, path, cookie);
      if (reply.status !== 200) throw new Error(`${name}: GET ${path}: ${reply.status} ${reply.body.slice(0, 200)}`);
      if (i >= WARMUP) times.push(reply.ms);
    }
    times.sort((a, b) => a - b);
    report(`${name} p50 (${field} racers)`, percentile(times, 50), "ms");
  }
}
