// Serves the built Worker for browser tests and benchmarks: fresh local state, migrated and seeded,
// on 127.0.0.1:<port>, with the local Stripe and Cloudflare fakes beside it so card payments and custom domains
// work end to end.
// Usage: tsx scripts/serve-test.ts <port> <state-dir>   (STRIPE_FAKE_PORT and CLOUDFLARE_FAKE_PORT override the fakes' ports)
import { spawn } from "node:child_process";
import { createWriteStream, rmSync } from "node:fs";
import path from "node:path";
import { startLocalCloudflare } from "./local-cloudflare";
import { startLocalStripe } from "./local-stripe";
import { migrateLocal } from "./migrate-local.mjs";
import { seedLocal } from "./seed";
import { root, wranglerBin, wranglerDevArgs, wranglerEnv } from "./wrangler-env.mjs";

const port = process.argv[2] ?? "8799";
const stateDir = path.resolve(root, process.argv[3] ?? ".wrangler/e2e-state");
rmSync(stateDir, { recursive: true, force: true });
migrateLocal(stateDir);
await seedLocal(stateDir);

const stripeFake = await startLocalStripe(port, "whsec_local_serve_test");

const cloudflareFake = await startLocalCloudflare(port, path.join(stateDir, "cloudflare-fake.json"));

const vars = [`PUBLIC_PORT:${port}`, ...stripeFake.vars, ...cloudflareFake.vars];
const child = spawn(wranglerBin, wranglerDevArgs(port, vars, ["--persist-to", stateDir, "--log-level", "warn"]), {
  cwd: root,
  env: wranglerEnv(),
  stdio: ["inherit", "pipe", "pipe"],
});
// Everything the Worker logs is kept beside its state: a browser test that failed in CI is explained by the
// Worker's own errors, which `npm test` prints from here (the browser runner ignores the server's stdout).
const serverLog = createWriteStream(path.join(stateDir, "server.log"));
child.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  serverLog.write(chunk);
});
child.stderr.on("data", (chunk: Buffer) => {
  process.stderr.write(chunk);
  serverLog.write(chunk);
});
const closeFake = () => Promise.all([stripeFake.close(), cloudflareFake.close()]);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void closeFake();
    child.kill(signal);
  });
}
child.on("exit", (code) => {
  void closeFake().then(() => process.exit(code ?? 0));
});
