import { expect, type Page } from "@playwright/test";
import { send } from "../../bench/http";
import type { DemoRace } from "../../bench/live-devices";
import { E2E_PORT } from "../../playwright.config";

// The reply of /_dev/demo-race, as the live benchmark reads it too.
export type { DemoRace } from "../../bench/live-devices";

/**
 * Gives the demo race its timing setup, as `npm start` does (a development-only route), and with `restart`
 * starts it now with earlier reads set aside. Returns fresh device credentials.
 */
export async function setUpDemoRace(restart = false): Promise<DemoRace> {
  const reply = await send(E2E_PORT, "localhost", "POST", "/_dev/demo-race", JSON.stringify({ restart }), { "Content-Type": "application/json" });
  if (reply.status !== 200) throw new Error(`demo race setup failed: ${reply.status} ${reply.body}`);
  return JSON.parse(reply.body) as DemoRace;
}

/**
 * One racer's three laps of the demo race (hill split, then the stadium), each pass read twice as chip
 * readers do, posted as the two readers would. `seq` numbers the reads; each test is its own reader boot.
 */
export async function raceDemoRacer(demo: DemoRace, bib: number, lapSeconds: number, seq: { value: number; boot?: string }): Promise<void> {
  seq.boot ??= `e2e-${crypto.randomUUID()}`;
  const chip = demo.racers.find((r) => r.bib === bib)!.chip;
  const byDevice = new Map<string, { seq: number; chip: string; time: number }[]>();
  for (let lap = 0; lap < 3; lap++) {
    for (const [name, fraction] of [
      ["Hill reader", 0.5],
      ["Finish reader", 1],
    ] as const) {
      const at = demo.startTime * 1000 + Math.round((lap + fraction) * lapSeconds * 1_000_000);
      const reads = byDevice.get(name) ?? [];
      reads.push({ seq: seq.value++, chip, time: at }, { seq: seq.value++, chip, time: at + 400_000 });
      byDevice.set(name, reads);
    }
  }
  for (const [name, reads] of byDevice) {
    const device = demo.devices.find((d) => d.name === name)!;
    const reply = await send(E2E_PORT, "localhost", "POST", `/timing-api/races/${demo.raceId}/reads`, JSON.stringify({ boot: seq.boot, reads }), {
      "Content-Type": "application/json",
      Authorization: `Bearer ${device.token}`,
    });
    if (reply.status !== 200) throw new Error(`reads refused: ${reply.status} ${reply.body}`);
  }
}

/** A URL on one of the local hosts; browsers resolve every *.localhost name to loopback. */
export function url(host: string, path = "/"): string {
  return `http://${host}:${E2E_PORT}${path}`;
}

/** Waits until React has hydrated the server-rendered page. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

/**
 * Signs in with a password from the sign-in page the browser is on (forgetting a remembered user first),
 * skipping the passkey offer if it appears.
 */
export async function signInWithPasswordFrom(page: Page, email: string, password: string): Promise<void> {
  const different = page.getByRole("button", { name: "Sign in with a different email address..." });
  if (await different.isVisible()) await different.click();
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((u) => u.pathname !== "/login");
  if (new URL(page.url()).pathname === "/login/passkey") {
    // A click before hydration is a plain form post; after it, the same post goes through the router. Waiting
    // makes it the one path every run takes (rankings.spec.ts once stalled here for 80 s on a busy CI run).
    await waitForHydration(page);
    await page.getByRole("button", { name: "Skip for Now..." }).click();
    // The session is usable once the offer has been left, not when the click is sent.
    await page.waitForURL((u) => u.pathname !== "/login/passkey");
  }
}

/** Signs a new person up and signs them in with the e-mailed link (read on /dev/mail), skipping the passkey offer. */
export async function signUpWithLink(page: Page, email: string, name: string): Promise<void> {
  await page.goto(url("localhost", "/signup"));
  await waitForHydration(page);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create an Account" }).click();
  await page.waitForURL(/\/welcome/);
  await page.goto(url("localhost", "/dev/mail"));
  await page
    .getByRole("article")
    .filter({ hasText: `To ${email}` })
    .first()
    .getByRole("link")
    .click();
  await page.waitForURL(/\/login\/passkey/);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Skip for Now..." }).click();
  await page.waitForURL(url("localhost", "/manage"));
}

/** The newest captured mail with this subject to this address; mail goes out after the response, so it is looked for until it is there. */
export async function openMail(page: Page, to: string, subject: string) {
  const article = page
    .getByRole("article", { name: subject })
    .filter({ hasText: `To ${to}` })
    .first();
  await expect(async () => {
    await page.goto(url("localhost", "/dev/mail"));
    await expect(article).toBeVisible({ timeout: 1_000 });
    // A receipt goes out from the payment's webhook through the mail queue: on a busy two-core CI run that took over 10 s once.
  }).toPass({ timeout: 30_000 });
  return article;
}
