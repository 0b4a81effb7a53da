// `npm run bench`: builds, then prints one JSON object per line per figure.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { root } from "../scripts/wrangler-env.mjs";
import { runBundleSize } from "./bundle-size";
import { runSiteHomeLatency } from "./site-home-latency";

execFileSync(path.join(root, "node_modules", ".bin", "remix"), ["vite:build", "--logLevel", "warn"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
runBundleSize();
await runSiteHomeLatency();
