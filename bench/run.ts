// `npm run bench`: builds, then prints one JSON object per line per figure.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { root } from "../scripts/wrangler-env.mjs";
import { runBundleSize } from "./bundle-size";
import { runDataApi } from "./data-api";
import { runRegistrationPage, runRegistrationPricing } from "./registration";
import { runRegistrationReport } from "./registration-report";
import { startServer } from "./server";
import { runPasswordHashing, runSignInThroughput } from "./sign-in";
import { runSiteHomeLatency } from "./site-home-latency";
import { runTimingApi } from "./timing-api";
import { runSeeding } from "./seeding";
import { runTimingEngine } from "./timing-engine";

const PORT = 8798;

execFileSync(path.join(root, "node_modules", ".bin", "remix"), ["vite:build", "--logLevel", "warn"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
runBundleSize();
await runPasswordHashing();
runTimingEngine();
runSeeding();
runRegistrationPricing();
runRegistrationReport();
const server = await startServer(PORT);
try {
  await runSiteHomeLatency(PORT);
  await runSignInThroughput(PORT);
  await runDataApi(PORT);
  await runRegistrationPage(PORT);
  await runTimingApi(PORT);
} finally {
  await server.stop();
}
