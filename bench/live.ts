// `npx tsx bench/live.ts [--port 8820] [--no-build]`: only the live-path figures (bench/timing-api.ts): builds,
// starts the built Worker under `wrangler dev` with fresh state on its own port (state in
// .wrangler/bench-state-<port>), runs them and stops the server. Exits 1 when a figure could not be measured.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { root } from "../scripts/wrangler-env.mjs";
import { startServer } from "./server";
import { runTimingApi } from "./timing-api";

const { values } = parseArgs({
  options: { port: { type: "string", default: process.env.BENCH_PORT ?? "8820" }, "no-build": { type: "boolean", default: false } },
});
const port = Number(values.port);
const OPEN_FILES = 65_536;

if (!values["no-build"])
  execFileSync(path.join(root, "node_modules", ".bin", "remix"), ["vite:build", "--logLevel", "warn"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
// The Worker's process holds one descriptor per spectator socket: raise its open-file limit where that is allowed.
const server = await startServer(port, { openFiles: OPEN_FILES });
let ok = false;
const stop = () => server.stop().finally(() => process.exit(1));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
try {
  ok = await runTimingApi(port, server.pid);
} finally {
  await server.stop();
}
process.exit(ok ? 0 : 1);
