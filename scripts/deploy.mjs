// `npm run deploy`: the production build (no development routes), the D1 migrations on the remote database,
// then `wrangler deploy --env production`. `--dry-run --outdir DIR` stops after bundling into DIR: the
// production build test uses it to look inside what would be deployed.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root, wranglerBin, wranglerEnv } from "./wrangler-env.mjs";

const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const outdir = args[args.indexOf("--outdir") + 1];

// Whatever the calling shell (or a test runner, which sets NODE_ENV=test) says: a development NODE_ENV would
// bundle React's development build into the Worker (measured: 766 KiB gzip instead of 661).
const production = { NODE_ENV: "production" };

function run(command, commandArgs, env = wranglerEnv(production)) {
  const { status } = spawnSync(command, commandArgs, { cwd: root, stdio: "inherit", env });
  if (status !== 0) process.exit(status ?? 1);
}

run(path.join(root, "node_modules", ".bin", "remix"), ["vite:build", "--logLevel", "warn"], wranglerEnv({ ...production, STARTLINE_TARGET: "production" }));
if (dryRun) {
  run(wranglerBin, ["deploy", "--env", "production", "--dry-run", ...(outdir ? ["--outdir", outdir] : [])]);
} else {
  run(wranglerBin, ["d1", "migrations", "apply", "DB", "--remote", "--env", "production"]);
  run(wranglerBin, ["deploy", "--env", "production"]);
}
