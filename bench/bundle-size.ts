// Sizes that decide cold starts and page weight: the Worker bundle and the home page's client JS, gzipped.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root, wranglerBin, wranglerEnv } from "../scripts/wrangler-env.mjs";
import { report } from "./report";

const gzipKb = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length / 1024;

export function workerBundleKb(): number {
  const outdir = path.join(root, ".wrangler", "bench-bundle");
  rmSync(outdir, { recursive: true, force: true });
  execFileSync(wranglerBin, ["deploy", "--dry-run", "--outdir", outdir], { cwd: root, env: wranglerEnv(), stdio: "ignore" });
  return gzipKb(path.join(outdir, "index.js"));
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
  report("worker_bundle_gzip", workerBundleKb(), "KiB");
}
