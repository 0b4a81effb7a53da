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
