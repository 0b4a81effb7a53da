// Serves the built Worker for browser tests and benchmarks: fresh local state, migrated and seeded,
// on 127.0.0.1:<port>. Usage: tsx scripts/serve-test.ts <port> <state-dir>
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { migrateLocal } from "./migrate-local.mjs";
import { seedLocal } from "./seed";
import { root, wranglerBin, wranglerEnv } from "./wrangler-env.mjs";

const port = process.argv[2] ?? "8799";
const stateDir = path.resolve(root, process.argv[3] ?? ".wrangler/e2e-state");

rmSync(stateDir, { recursive: true, force: true });
migrateLocal(stateDir);
await seedLocal(stateDir);

const child = spawn(
  wranglerBin,
  ["dev", "--ip", "127.0.0.1", "--port", port, "--local", "--persist-to", stateDir, "--var", `PUBLIC_PORT:${port}`, "--show-interactive-dev-session=false", "--log-level", "warn"],
  { cwd: root, env: wranglerEnv(), stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
