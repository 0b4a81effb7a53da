// Page figures only a browser can give: Debian's Chromium (as the browser tests use), driven by Playwright.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";

/** Elements in the document once the page has loaded and hydrated (the live list has had its first render). */
export async function domNodesAfterLoad(url: string): Promise<number> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // As the browser tests: tenants are *.localhost names (loopback), and nothing else is reachable.
    args: ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE *.localhost"],
  });
  try {
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: "load", timeout: 120_000 });
    await page.waitForLoadState("networkidle", { timeout: 60_000 }).catch(() => undefined);
    return await page.evaluate(() => document.getElementsByTagName("*").length);
  } finally {
    await browser.close();
  }
}

/** Pinned, and fetched by npx when the bench first runs it: 185 MB that `npm install` and the tests do not need. */
const LIGHTHOUSE = "lighthouse@12.8.2";

/** Lighthouse's mobile performance score (0-100, its default throttled phone) for `url`, in Debian's Chromium. */
export function lighthouseMobilePerformance(url: string): number {
  const dir = mkdtempSync(path.join(tmpdir(), "startline-lighthouse-"));
  const out = path.join(dir, "report.json");
  try {
    execFileSync(
      "npx",
      [
        "--yes",
        LIGHTHOUSE,
        url,
        "--only-categories=performance",
        "--output=json",
        `--output-path=${out}`,
        "--quiet",
        // *.localhost names resolve to this machine in Chromium without help.
        "--chrome-flags=--headless=new --no-sandbox",
      ],
      { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" }, stdio: ["ignore", "ignore", "inherit"], timeout: 300_000 },
    );
    const result = JSON.parse(readFileSync(out, "utf8")) as { categories: { performance: { score: number } } };
    return Math.round(result.categories.performance.score * 100);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
