// Page figures only a browser can give: Debian's Chromium (as the browser tests use), driven by Playwright.
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
