import type { Page } from "@playwright/test";
import { send } from "../../bench/http";
import { E2E_PORT } from "../../playwright.config";

export interface DemoRace {
  raceId: string;
  startTime: number;
  devices: { id: string; name: string; token: string }[];
  formats: { id: string; name: string }[];
  racers: { bib: number; chip: string }[];
}

/**
 * Gives the demo race its timing setup, as `npm start` does (a development-only route), and with `restart`
 * starts it now with earlier reads set aside. Returns fresh device credentials.
 */
export async function setUpDemoRace(restart = false): Promise<DemoRace> {
  const reply = await send(E2E_PORT, "localhost", "POST", "/_dev/demo-race", JSON.stringify({ restart }), { "Content-Type": "application/json" });
  if (reply.status !== 200) throw new Error(`demo race setup failed: ${reply.status} ${reply.body}`);
  return JSON.parse(reply.body) as DemoRace;
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
  if (new URL(page.url()).pathname === "/login/passkey") await page.getByRole("button", { name: "Skip for Now..." }).click();
}
