import { defineConfig, devices } from "@playwright/test";

// Overridable, so a second checkout can run its browser tests beside a server already on 8799.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8799);
const E2E_STATE_DIR = process.env.E2E_STATE_DIR ?? ".wrangler/e2e-state";

// Debian's Chromium, never a downloaded browser (stack.md). The resolver rules keep it off the network.
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // keypad.venue stands for a laptop's address on a venue's network: plain http that is not localhost, so the
  // serverbox's web keypad runs without a secure context (no crypto.randomUUID, no Web Locks), as at a race.
  "--host-resolver-rules=MAP keypad.venue 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE *.localhost",
];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  // One more try for a test that fails: the local `wrangler dev` proxy now and then holds a request until the
  // next one arrives (bench/http.ts), which a browser never sends. A retried pass is named in npm test's
  // summary as flaky, never hidden; a test that fails twice fails the run (decision 0100).
  retries: 1,
  timeout: 30_000,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    trace: "retain-on-failure",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], channel: undefined } },
    { name: "phone", use: { ...devices["Pixel 7"], channel: undefined }, grep: /@phone/ },
  ],
  webServer: {
    command: `node_modules/.bin/tsx scripts/serve-test.ts ${E2E_PORT} ${E2E_STATE_DIR}`,
    url: `http://127.0.0.1:${E2E_PORT}/favicon.ico`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
