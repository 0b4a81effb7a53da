import type { Page } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";

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
