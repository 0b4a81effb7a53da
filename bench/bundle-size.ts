// Sizes that decide cold starts and page weight: the Worker bundle and the home page's client JS, gzipped.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root, wranglerBin, wranglerEnv } from "../scripts/wrangler-env.mjs";
import { report } from "./report";

const gzipKb = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length / 1024;

/**
 * The Worker as `npm run deploy` ships it (scripts/deploy.mjs: minified, production config, no development routes),
 * gzipped as tests/build/production-build.test.ts weighs it against its budget. `development`: wrangler's plain
 * dry run, which `npm start` serves (unminified, with the demo mounts).
 */
export function workerBundleKb(build: "production" | "development" = "production"): number {
  const outdir = path.join(root, ".wrangler", `bench-bundle-${build}`);
  rmSync(outdir, { recursive: true, force: true });
  if (build === "production") execFileSync("node", ["scripts/deploy.mjs", "--dry-run", "--outdir", outdir], { cwd: root, env: wranglerEnv(), stdio: "ignore" });
  else execFileSync(wranglerBin, ["deploy", "--dry-run", "--outdir", outdir], { cwd: root, env: wranglerEnv(), stdio: "ignore" });
  const file = readdirSync(outdir).find((f) => f.endsWith(".js"));
  if (!file) throw new Error(`bundle size: no .js file in ${outdir}`);
  return gzipSync(readFileSync(path.join(outdir, file))).length / 1024;
}

/** Every JS file a first visit to a page loads, read from the modulepreload links and imports of its served HTML. */
export function pageClientJsKb(html: string): number {
  const clientDir = path.join(root, "build", "client");
  const files = new Set<string>();
  for (const match of html.matchAll(/(?:href|import\()\s*=?\s*"(\/assets\/[^"]+\.js)"/g)) files.add(match[1]!);
  let total = 0;
  for (const file of files) total += gzipKb(path.join(clientDir, file));
  return total;
}

export function runBundleSize(): void {
  report("worker_bundle_gzip", workerBundleKb("production"), "KiB");
  report("worker_bundle_development_gzip", workerBundleKb("development"), "KiB");
}
