// `npm run bench`: builds, then prints one JSON object per line per figure. `--only timing` runs just the
// live-path figures (bench/timing-api.ts; bench/live.ts does the same on its own port); `--only checkout` just
// the card checkouts under load (bench/checkout.ts); `--only admin` just the administration lists at 10,000
// objects (bench/admin-lists.ts); `--only racer` just the racer page at 27,000 racers (bench/racer-page.ts). `--port` picks the
// server's port (default 8798); its state lives in .wrangler/bench-state-<port>.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { root } from "../scripts/wrangler-env.mjs";
import { runAdminLists } from "./admin-lists";
import { runBundleSize } from "./bundle-size";
import { runCheckouts } from "./checkout";
import { runDataApi } from "./data-api";
import { runRacerPage } from "./racer-page";
import { runRegistrationPage, runRegistrationPricing } from "./registration";
import { runRegistrationReport } from "./registration-report";
import { startServer } from "./server";
import { runPasswordHashing, runSignInThroughput } from "./sign-in";
import { runSiteHomeLatency } from "./site-home-latency";
import { runTimingApi } from "./timing-api";
import { runSeeding } from "./seeding";
import { runTimingEngine } from "./timing-engine";

const { values } = parseArgs({ options: { only: { type: "string" }, port: { type: "string", default: "8798" } } });
if (values.only !== undefined && !["timing", "checkout", "admin", "racer"].includes(values.only))
  throw new Error(`--only takes "timing", "checkout", "admin" or "racer", not "${values.only}"`);
const timingOnly = values.only === "timing";
const checkoutOnly = values.only === "checkout";
const adminOnly = values.only === "admin";
const racerOnly = values.only === "racer";
const PORT = Number(values.port);

execFileSync(path.join(root, "node_modules", ".bin", "remix"), ["vite:build", "--logLevel", "warn"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
if (!timingOnly && !checkoutOnly && !adminOnly && !racerOnly) {
  runBundleSize();
  await runPasswordHashing();
  runTimingEngine();
  runSeeding();
  runRegistrationPricing();
  runRegistrationReport();
}
// Room for the live path's largest audience: one descriptor per spectator socket in the Worker's process.
const server = await startServer(PORT, { openFiles: 65_536 });
let timingOk = false;
try {
  if (adminOnly) await runAdminLists(PORT);
  if (racerOnly) await runRacerPage(PORT);
  if (!timingOnly && !checkoutOnly && !adminOnly && !racerOnly) {
    await runSiteHomeLatency(PORT);
    await runSignInThroughput(PORT);
    await runDataApi(PORT);
    await runRegistrationPage(PORT);
    await runAdminLists(PORT);
  }
  if (!timingOnly && !adminOnly && !racerOnly) await runCheckouts(PORT);
  timingOk = checkoutOnly || adminOnly || racerOnly || (await runTimingApi(PORT, server.pid));
  // After the live path: it grows the demo race to 27,000 racers, which the live figures are not measured with.
  if (!timingOnly && !checkoutOnly && !adminOnly && !racerOnly) await runRacerPage(PORT);
} finally {
  await server.stop();
}
// Every figure that could be measured is printed; a missing one makes the run fail.
if (!timingOk) process.exitCode = 1;
