// Applies the D1 migrations to a local database. Usage: node scripts/migrate-local.mjs [persist-dir]
import { execFileSync } from "node:child_process";
import { root, wranglerBin, wranglerEnv } from "./wrangler-env.mjs";

export function migrateLocal(persistTo) {
  const args = ["d1", "migrations", "apply", "DB", "--local"];
  if (persistTo) args.push("--persist-to", persistTo);
  execFileSync(wranglerBin, args, { cwd: root, env: wranglerEnv({ CI: "true" }), stdio: ["ignore", "inherit", "inherit"] });
}

if (import.meta.url === `file://${process.argv[1]}`) migrateLocal(process.argv[2]);
