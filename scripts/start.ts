// `npm start`: migrate the local D1, seed the demo, build, start the local Stripe fake (unless .dev.vars names
// real Stripe test keys) and the local Cloudflare custom hostnames fake (unless .dev.vars names a Cloudflare
// token), and run the Worker with wrangler dev on 127.0.0.1:8787.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { startLocalCron } from "./local-cron";
import { startLocalCloudflare } from "./local-cloudflare";
import { startLocalStripe } from "./local-stripe";
import { demoUsers } from "./demo-data";
import { migrateLocal } from "./migrate-local.mjs";
import { seedLocal } from "./seed";
import { send } from "../bench/http";
import { root, wranglerBin, wranglerDevArgs, wranglerEnv } from "./wrangler-env.mjs";

const port = process.env.PORT ?? "8787";
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

console.log("Applying D1 migrations to the local database…");
migrateLocal();
console.log("Seeding the demo club, site, race and users…");
await seedLocal();
console.log("Building…");
execFileSync(bin("remix"), ["vite:build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });

// Card payments out of the box: the same fake the browser tests pay against, beside the Worker. Keys of your own
// in .dev.vars (STRIPE_SECRET_KEY=sk_test_…) turn it off, and the Worker talks to Stripe's test mode instead.
const devVars = path.join(root, ".dev.vars");
const ownStripeKeys = existsSync(devVars) && /^STRIPE_SECRET_KEY=/m.test(readFileSync(devVars, "utf8"));
const stripeFake = ownStripeKeys ? null : await startLocalStripe(port, "whsec_local_npm_start");
const stripeVars = stripeFake?.vars ?? [];
// Custom domains out of the box: a fake of Cloudflare's Custom Hostnames API that takes a domain live in a few checks.
const ownCloudflare = existsSync(devVars) && /^CLOUDFLARE_API_TOKEN=/m.test(readFileSync(devVars, "utf8"));
const cloudflareFake = ownCloudflare ? null : await startLocalCloudflare(port, path.join(root, ".wrangler", "state", "cloudflare-fake.json"));

const banner = [
  "",
  "Startline is running locally:",
  `  Main site          http://localhost:${port}/`,
  `  Demo club site     http://demo.localhost:${port}/`,
  `  Second club site   http://trail.localhost:${port}/`,
  `  Super-admin        http://admin.localhost:${port}/`,
  `  Captured mail      http://localhost:${port}/dev/mail`,
  stripeFake
    ? `  Card payments      the local Stripe fake at ${stripeFake.url}: card 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined`
    : "  Card payments      Stripe test mode, with the keys in .dev.vars",
  cloudflareFake
    ? `  Custom domains     the local Cloudflare fake at ${cloudflareFake.url}: a domain added on a site's settings page goes live after four checks`
    : "  Custom domains     Cloudflare for SaaS, with the zone and token in .dev.vars",
  "",
  "Demo sign-ins:",
  ...demoUsers.map((u) => `  ${u.description.padEnd(32)} ${u.email} / ${u.password}`),
  "",
  "Press Ctrl+C to stop.",
  "",
].join("\n");

const child = spawn(wranglerBin, wranglerDevArgs(port, [`PUBLIC_PORT:${port}`, ...stripeVars, ...(cloudflareFake?.vars ?? [])]), {
  cwd: root,
  env: wranglerEnv(),
  stdio: ["ignore", "pipe", "inherit"],
});
let shown = false;
let stopCron = () => {};
child.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (!shown && /Ready on/.test(String(chunk))) {
    shown = true;
    console.log(banner);
    void setUpDemoRace();
    stopCron = startLocalCron(root, Number(port));
  }
});
/** The demo race's timing setup lives in its RaceRoom, so it is made through the running Worker. */
async function setUpDemoRace(): Promise<void> {
  try {
    const reply = await send(Number(port), "localhost", "POST", "/_dev/demo-race", '{"credentials":false}', { "Content-Type": "application/json" });
    if (reply.status === 200) console.log("Demo race timing setup ready. Run `npm run simulate` to race it and watch the results move.");
    else console.error(`Demo race setup failed (${reply.status}): ${reply.body}`);
    const sprint = await send(Number(port), "localhost", "POST", "/_dev/demo-sprint", "{}", { "Content-Type": "application/json" });
    if (sprint.status === 200)
      console.log(`Demo sprint ready: seed and run its heats at http://localhost:${port}/race/${JSON.parse(sprint.body).raceId}/admin/heats`);
    else console.error(`Demo sprint setup failed (${sprint.status}): ${sprint.body}`);
  } catch (error) {
    console.error("Demo race setup failed", error);
  }
}

const closeFake = () => Promise.all([stripeFake?.close(), cloudflareFake?.close()]);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    stopCron();
    void closeFake();
    child.kill(signal);
  });
child.on("exit", (code) => {
  void closeFake().then(() => process.exit(code ?? 0));
});
