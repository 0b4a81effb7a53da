import { expect, test } from "@playwright/test";
import { send } from "../../bench/http";
import { E2E_PORT } from "../../playwright.config";
import { demoSites, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const site = demoSites[1];
const admin = demoUsers[0];
// A new name each run, so the test can run again against the same server.
const DOMAIN = `results-${Date.now().toString(36)}.riverside.example.org`;
const WWW = `www.${DOMAIN}`;

/** The browser resolves only *.localhost here, so the club's own domain is asked for with its Host header. */
const onDomain = (host: string, path = "/") => send(E2E_PORT, host, "GET", path);

test("a site's administrator adds the club's own domain, sees the DNS records, and watches it go live against the local Cloudflare fake", async ({ page }) => {
  await page.goto(url("localhost", "/login"));
  await signInWithPasswordFrom(page, admin.email, admin.password);
  await page.goto(url("localhost", `/site/${site.id}/settings`));
  await waitForHydration(page);
  const domains = page.getByRole("region", { name: "Domains" });
  await expect(domains.getByRole("button", { name: "Add the domain" })).toBeVisible();

  // Garbage is refused with words that say what to fix.
  await domains.getByLabel("Domain").fill(`https://${DOMAIN}/races`);
  await domains.getByRole("button", { name: "Add the domain" }).click();
  await expect(domains.getByText("Enter the domain without http:// or https://")).toBeVisible();

  await domains.getByLabel("Domain").fill(DOMAIN.toUpperCase());
  await domains.getByRole("button", { name: "Add the domain" }).click();
  await expect(page.getByText("Domain added. Create the DNS records below")).toBeVisible();
  const card = domains.getByRole("article", { name: DOMAIN });
  await expect(card.getByTestId("domain-status")).toHaveText("Waiting for DNS");
  await expect(card.getByRole("rowheader", { name: "CNAME" })).toBeVisible();
  await expect(card.getByRole("cell", { name: "domains.localhost" })).toBeVisible();
  await expect(card.getByRole("cell", { name: `_cf-custom-hostname.${DOMAIN}` })).toBeVisible();
  expect((await onDomain(DOMAIN)).status).toBe(404);

  // The fake moves one step per look: Check now until Cloudflare says it is live.
  await expect(async () => {
    await domains.getByRole("button", { name: "Check now" }).click();
    await expect(card.getByTestId("domain-status")).toHaveText("Live", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(card.getByText("DNS records to create")).toBeHidden();

  const home = await onDomain(DOMAIN);
  expect(home.status).toBe(200);
  expect(home.body).toContain(site.config.name);

  // The same domain again is the same domain, not a second one.
  await domains.getByLabel("Domain").fill(DOMAIN);
  await domains.getByRole("button", { name: "Add the domain" }).click();
  // The form comes back empty once the page is back.
  await expect(domains.getByLabel("Domain")).toHaveValue("");
  await expect(domains.getByRole("article", { name: DOMAIN })).toHaveCount(1);

  // www beside it: once live, it leads to the primary (the first domain).
  await domains.getByLabel("Domain").fill(WWW);
  await domains.getByRole("button", { name: "Add the domain" }).click();
  await expect(domains.getByLabel("Domain")).toHaveValue("");
  const www = domains.getByRole("article", { name: WWW });
  await expect(async () => {
    await domains.getByRole("button", { name: "Check now" }).click();
    await expect(www.getByTestId("domain-status")).toHaveText("Live", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  const redirected = await onDomain(WWW, "/races?page=2");
  expect(redirected.status).toBe(308);
  expect(redirected.headers.location).toBe(`http://${DOMAIN}:${E2E_PORT}/races?page=2`);

  // Remove both, each after a confirmation; the domain then has no site again.
  for (const name of [WWW, DOMAIN]) {
    await domains.getByRole("link", { name: `Remove ${name}` }).click();
    await page.getByRole("button", { name: "Remove the domain" }).click();
    await expect(page.getByText("Domain removed.")).toBeVisible();
  }
  await expect(domains.getByRole("article", { name: DOMAIN })).toHaveCount(0);
  expect((await onDomain(DOMAIN)).status).toBe(404);
});
