import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";

/**
 * Every local address the README names, opened as a newcomer would after `npm start`: none may be missing
 * or broken. Addresses with a placeholder (…) are examples to fill in, not links. One test per address, so
 * a failure names it and each has the whole test budget.
 */
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const named = [...new Set([...readme.matchAll(/http:\/\/(?:[a-z]+\.)?localhost:8787[^\s)`'"<>]*/g)].map((m) => m[0].replace(/[.,;:]+$/, "")))];
const local = named.filter((url) => !url.includes("…"));

test("the README names the local addresses a newcomer opens", () => {
  expect(local.length).toBeGreaterThan(10);
});

for (const url of local) {
  test(`the README's ${url} opens`, async ({ page }) => {
    // The document is what the README promises; a slow image or font is not its concern.
    const response = await page.goto(url.replace(":8787", `:${E2E_PORT}`), { waitUntil: "domcontentloaded" });
    expect(response?.status(), url).toBeLessThan(400);
    await expect(page.getByRole("heading", { name: /Page not found|No site is at this address|Something went wrong/ }), url).toHaveCount(0);
  });
}
