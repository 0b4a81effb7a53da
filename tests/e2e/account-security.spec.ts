import { expect, test, type Page } from "@playwright/test";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { url, signUpWithLink } from "./hosts";

const MAIN = "localhost";
const PASSWORD = "birch-trail-2026";

/** The code an authenticator app would show `stepsAhead` 30-second steps from now. */
function totpCode(typedSecret: string, stepsAhead = 0): string {
  const key = decodeBase32IgnorePadding(typedSecret.replace(/\s/g, ""));
  return generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + stepsAhead), 6);
}

async function recoveryCodesOn(page: Page): Promise<string[]> {
  return (await page.getByTestId("recovery-codes").getByRole("listitem").allTextContents()).map((c) => c.trim());
}

test("the security page: two-factor with recovery codes, sessions, and re-authentication for a sensitive change", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const email = `careful-${Date.now()}@example.com`;
  await signUpWithLink(page, email, "Casey Careful");

  // A first password needs no current one (there is none) on a fresh sign-in.
  await page.goto(url(MAIN, "/manage/security"));
  await page.getByLabel("New Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm New Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("Your password is set.")).toBeVisible();

  // Two-factor: a wrong code keeps the same key and QR on the page.
  await page.getByRole("button", { name: "Set up two-factor" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!;
  const right = totpCode(secret);
  await page.getByLabel("6-digit code").fill(String((Number(right) + 1) % 1_000_000).padStart(6, "0"));
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(page.getByText("Incorrect Code")).toBeVisible();
  await expect(page.getByTestId("totp-secret")).toHaveText(secret);
  await page.getByLabel("6-digit code").fill(right);
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(page.getByText("Two-factor authentication is on.")).toBeVisible();

  // Ten recovery codes, shown once.
  const codes = await recoveryCodesOn(page);
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
  await page.reload();
  await expect(page.getByTestId("recovery-codes")).toHaveCount(0);
  await expect(page.getByTestId("recovery-remaining")).toHaveText("10");

  // Elsewhere (another browser): password, then a recovery code at the code step.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await other.goto(url(MAIN, "/login"));
  await other.getByLabel("Email address").fill(email);
  await other.getByRole("button", { name: "Continue" }).click();
  await other.getByLabel("Password").fill(PASSWORD);
  await other.getByRole("button", { name: "Sign in", exact: true }).click();
  await other.waitForURL(url(MAIN, "/login/totp"));
  await other.getByLabel("6-digit code or recovery code").fill(codes[0]!);
  await other.getByRole("button", { name: "Verify" }).click();
  await other.waitForURL((u) => u.pathname !== "/login/totp");
  if (new URL(other.url()).pathname === "/login/passkey") await other.getByRole("button", { name: "Skip for Now..." }).click();
  await other.waitForURL(url(MAIN, "/manage"));

  // The first browser sees both sessions and signs the other one out.
  await page.reload();
  await expect(page.getByTestId("recovery-remaining")).toHaveText("9");
  const sessionRows = page.getByRole("table", { name: "Where you are signed in" }).getByRole("row").filter({ hasText: MAIN });
  await expect(sessionRows).toHaveCount(2);
  await expect(sessionRows.filter({ hasText: "(this device)" })).toHaveCount(1);
  await sessionRows
    .filter({ hasNotText: "(this device)" })
    .getByRole("button", { name: /Sign out the session/ })
    .click();
  await expect(page.getByText("That session is signed out.")).toBeVisible();
  await expect(sessionRows).toHaveCount(1);
  await other.goto(url(MAIN, "/manage"));
  await expect(other).toHaveURL(/\/login\?goto=%2Fmanage/);
  await elsewhere.close();

  // Past the five-minute window (moved back through the development-only hook), a sensitive change asks to confirm it is you.
  const aged = await page.evaluate(
    async () =>
      (await fetch("/_dev/age-session", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ minutes: 10 }) })).status,
  );
  expect(aged).toBe(200);
  await page.getByRole("button", { name: "Make new recovery codes" }).click();
  await page.waitForURL(/\/login\?reauth=1&goto=%2Fmanage%2Fsecurity/);
  await expect(page.getByRole("heading", { name: "Confirm it's you" })).toBeVisible();
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(url(MAIN, "/login/totp"));
  await page.getByLabel("6-digit code or recovery code").fill(totpCode(secret, 1));
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL(url(MAIN, "/manage/security"));
  // The same session, now fresh: the change goes through.
  await page.getByRole("button", { name: "Make new recovery codes" }).click();
  await expect(page.getByText("New recovery codes are made; the old ones no longer work.")).toBeVisible();
  const fresh = await recoveryCodesOn(page);
  expect(fresh).toHaveLength(10);
  expect(fresh).not.toContain(codes[1]);
  await expect(page.getByRole("table", { name: "Where you are signed in" }).getByRole("row").filter({ hasText: MAIN })).toHaveCount(1);
});
