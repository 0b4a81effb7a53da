// Serves the built Worker for browser tests and benchmarks: fresh local state, migrated and seeded,
// on 127.0.0.1:<port>, with the local Stripe fake beside it so card payments work end to end.
// Usage: tsx scripts/serve-test.ts <port> <state-dir>   (STRIPE_FAKE_PORT overrides the fake's port)
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { startStripeFakeServer } from "../tests/fakes/stripe/server";
import { migrateLocal } from "./migrate-local.mjs";
import { seedLocal } from "./seed";
import { root, wranglerBin, wranglerEnv } from "./wrangler-env.mjs";

const port = process.argv[2] ?? "8799";
const stateDir = path.resolve(root, process.argv[3] ?? ".wrangler/e2e-state");
// A fixed offset from the Worker's port, so the e2e server (8799 → 12199) and a bench server on another port never collide.
const stripeFakePort = Number(process.env.STRIPE_FAKE_PORT ?? Number(port) + 3400);
// Not a secret: the fake signs webhooks with it and the Worker verifies them with it, both on loopback only.
const webhookSecret = "whsec_local_serve_test";

rmSync(stateDir, { recursive: true, force: true });
migrateLocal(stateDir);
await seedLocal(stateDir);

// The Worker resolves its tenant from the Host header; webhooks belong to the main host (localhost).
const stripeFake = await startStripeFakeServer({
  port: stripeFakePort,
  webhookUrl: `http://127.0.0.1:${port}/_payments/stripe/webhook`,
  webhookHost: `localhost:${port}`,
  webhookSecret,
});

const vars = [`PUBLIC_PORT:${port}`, "STRIPE_SECRET_KEY:sk_test_local", `STRIPE_WEBHOOK_SECRET:${webhookSecret}`, `STRIPE_API_BASE:${stripeFake.url}`];
const child = spawn(
  wranglerBin,
  [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    port,
    "--local",
    "--persist-to",
    stateDir,
    ...vars.flatMap((v) => ["--var", v]),
    "--show-interactive-dev-session=false",
    "--log-level",
    "warn",
  ],
  { cwd: root, env: wranglerEnv(), stdio: "inherit" },
);
// Closing the fake drops its open connections, so the process can end as soon as wrangler does; once is enough
// (a signal and then the child's exit both ask, and a second server.close would fail).
let closing: Promise<void> | null = null;
const closeFake = () => (closing ??= stripeFake.close().catch((error: unknown) => console.error("stripe-fake: close failed", error)));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void closeFake();
    child.kill(signal);
  });
}
child.on("exit", (code) => {
  void closeFake().then(() => process.exit(code ?? 0));
});
