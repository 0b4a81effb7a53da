// `npm run bench`: builds, then prints one JSON object per line per figure. `--only timing` runs just the
// live-path figures (bench/timing-api.ts; bench/live.ts does the same on its own port); `--only checkout` just
// the card checkouts under load (bench/checkout.ts); `--only admin` just the administration lists at 10,000
// objects (bench/admin-lists.ts); `--only racer` just the racer and results pages at 27,000 racers, and the pages that read the whole field (bench/racer-page.ts, bench/racer-lists.ts);
// `--only startlist` just a marathon's start list: 50,000 racers in one wave, a crowd on the public list while a device posts, and the organiser's report pages (bench/start-list.ts);
// `--only crowd` just a crowd following the paged results page through a mass finish, then page 2's crowd after a DNF on page 1 (bench/results-crowd.ts);
// `--only site` just the club site's home page, from the edge cache and rendered (bench/site-home-latency.ts);
// `--only newsletter` just a newsletter to 10,000 readers, queued and sent (bench/newsletter-send.ts); `--only series` just a
// points series of 20 races × 5,000 racers recomputed after one race changes (bench/series-recompute.ts); `--only floor` just
// the send floor, a Worker that only sends to 1,000 and 10,000 sockets (bench/send-floor.ts, on port + 1, after the
// platform's server has stopped); `--only apart` just the live path's 0- and 1,000-spectator figures with the shards in a
// workerd process of their own (bench/shards-apart.ts, on port and port + 1, last); `--only heap` just what a race room of
// 50,000 racers and 600,000 reads holds in workerd (bench/room-heap.ts, its own server on port). `--port` picks the server's port (default 8798); its state lives in .wrangler/bench-state-<port>.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { root } from "../scripts/wrangler-env.mjs";
import { runAdminLists } from "./admin-lists";
import { runBundleSize } from "./bundle-size";
import { runCheckouts } from "./checkout";
import { runDataApi } from "./data-api";
import { runRacerPage } from "./racer-page";
import { runResultsCrowd } from "./results-crowd";
import { runRoomHeap } from "./room-heap";
import { runRegistrationPage, runRegistrationPricing } from "./registration";
import { runRegistrationReport } from "./registration-report";
import { startServer } from "./server";
import { runPasswordHashing, runSignInThroughput } from "./sign-in";
import { runNewsletterSend } from "./newsletter-send";
import { runSendFloor } from "./send-floor";
import { runShardsApart } from "./shards-apart";
import { runSeriesRecompute } from "./series-recompute";
import { runSiteHomeLatency } from "./site-home-latency";
import { runTimingApi } from "./timing-api";
import { runSeeding } from "./seeding";
import { runStartList } from "./start-list";
import { runTimingEngine } from "./timing-engine";

const { values } = parseArgs({ options: { only: { type: "string" }, port: { type: "string", default: "8798" } } });
const ONLY = ["timing", "checkout", "admin", "racer", "startlist", "crowd", "site", "newsletter", "series", "floor", "apart", "heap"];
if (values.only !== undefined && !ONLY.includes(values.only)) throw new Error(`--only takes one of ${ONLY.join(", ")}, not "${values.only}"`);
const timingOnly = values.only === "timing";
const checkoutOnly = values.only === "checkout";
const adminOnly = values.only === "admin";
const racerOnly = values.only === "racer";
const startListOnly = values.only === "startlist";
const crowdOnly = values.only === "crowd";
const siteOnly = values.only === "site";
const newsletterOnly = values.only === "newsletter";
const seriesOnly = values.only === "series";
const floorOnly = values.only === "floor";
const apartOnly = values.only === "apart";
const heapOnly = values.only === "heap";
const someOnly = values.only !== undefined;
const PORT = Number(values.port);

// The floor's Worker is its own (bench/send-floor-worker): the platform's build is not needed for it.
if (!floorOnly)
  execFileSync(path.join(root, "node_modules", ".bin", "remix"), ["vite:build", "--logLevel", "warn"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
if (!someOnly) {
  runBundleSize();
  await runPasswordHashing();
  runTimingEngine();
  runSeeding();
  runRegistrationPricing();
  runRegistrationReport();
}
/** The figures that need the platform's server: started once, on PORT, and stopped whatever happens. */
async function platformFigures(): Promise<boolean> {
  // Room for the live path's largest audience: one descriptor per spectator socket in the Worker's process.
  const server = await startServer(PORT, { openFiles: 65_536 });
  try {
    if (adminOnly) await runAdminLists(PORT);
    if (racerOnly) await runRacerPage(PORT);
    if (startListOnly) await runStartList(PORT);
    if (crowdOnly) await runResultsCrowd(PORT);
    if (siteOnly) await runSiteHomeLatency(PORT);
    if (newsletterOnly) await runNewsletterSend(PORT);
    if (seriesOnly) await runSeriesRecompute(PORT);
    if (!someOnly) {
      await runSiteHomeLatency(PORT);
      await runSignInThroughput(PORT);
      await runDataApi(PORT);
      await runRegistrationPage(PORT);
      await runAdminLists(PORT);
      await runNewsletterSend(PORT);
      await runSeriesRecompute(PORT);
    }
    if (!someOnly || checkoutOnly) await runCheckouts(PORT);
    const timingOk = (someOnly && !timingOnly) || (await runTimingApi(PORT, server.pid));
    // After the live path: they grow the demo race, which the live figures are not measured with.
    if (!someOnly) await runResultsCrowd(PORT);
    if (!someOnly) await runRacerPage(PORT);
    if (!someOnly) await runStartList(PORT);
    return timingOk;
  } finally {
    await server.stop();
  }
}

const timingOk = floorOnly || apartOnly || heapOnly || (await platformFigures());
// A server of its own: the room's heap is measured with nothing else in the isolate.
const heapOk = (someOnly && !heapOnly) || (await runRoomHeap(PORT));
// With the platform's server stopped, so the floor has the machine the platform's figures had.
const floorOk = (someOnly && !floorOnly) || (await runSendFloor(PORT + 1));
// Last, on the same ports: the room's and the shards' Workers in two processes, with the machine to themselves.
const apartOk = (someOnly && !apartOnly) || (await runShardsApart(PORT));
// Every figure that could be measured is printed; a missing one makes the run fail.
if (!timingOk || !heapOk || !floorOk || !apartOk) process.exitCode = 1;
