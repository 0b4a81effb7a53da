import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { demoRaces, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const MAIN = "localhost";

/** The code an authenticator app would show `stepsAhead` 30-second steps from now. */
function totpCode(typedSecret: string, stepsAhead = 0): string {
  const key = decodeBase32IgnorePadding(typedSecret.replace(/\s/g, ""));
  return generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + stepsAhead), 6);
}

async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function signOut(page: Page) {
  await page.getByRole("link", { name: "Sign out" }).first().click();
  await page.waitForURL(url(MAIN, "/login"));
}

async function signInWithPassword(page: Page, password: string) {
  await page.goto(url(MAIN, "/login"));
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("a person's whole path: sign up, link, password, two-factor, passkey, sign out", async ({ page, context }) => {
  test.setTimeout(90_000);
  const email = `racer-${Date.now()}@example.com`;

  // Sign up: the button waits for an at-sign and a name.
  await page.goto(url(MAIN, "/signup"));
  await waitForHydration(page);
  const create = page.getByRole("button", { name: "Create an Account" });
  await expect(create).toBeDisabled();
  await page.getByLabel("Email address").fill(email);
  await expect(create).toBeDisabled();
  await page.getByLabel("Name").fill("Robin Racer");
  await expect(create).toBeEnabled();
  await create.click();
  await page.waitForURL(/\/welcome/);
  await expect(page.getByText(email)).toBeVisible();

  // Read the link on the dev mail page and sign in with it.
  await page.goto(url(MAIN, "/dev/mail"));
  await page
    .getByRole("article")
    .filter({ hasText: `To ${email}` })
    .first()
    .getByRole("link")
    .click();
  await page.waitForURL(/\/login\/passkey/);
  await page.getByRole("button", { name: "Skip for Now..." }).click();
  await page.waitForURL(url(MAIN, "/manage"));
  await expect(page.getByRole("heading", { name: "Hello, Robin Racer" })).toBeVisible();

  // A used link cannot be used twice.
  await page.goto(url(MAIN, "/dev/mail"));
  const linkHref = await page
    .getByRole("article")
    .filter({ hasText: `To ${email}` })
    .first()
    .getByRole("link")
    .getAttribute("href");
  await signOut(page);
  await page.goto(linkHref!);
  await expect(page.getByText("This sign-in link has already been used or has expired. Please request a new one.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send a New Link" })).toBeVisible();
  await page.getByRole("button", { name: "Send a New Link" }).click();
  await expect(page.getByText(/valid for only ten minutes/)).toBeVisible();
  await page.goto(url(MAIN, "/dev/mail"));
  await page
    .getByRole("article")
    .filter({ hasText: `To ${email}` })
    .first()
    .getByRole("link")
    .click();
  await page.waitForURL(url(MAIN, "/manage"));

  // Set a password: a common one is refused first.
  await page.getByRole("link", { name: "Password and two-factor" }).click();
  await page.getByLabel("New Password", { exact: true }).fill("baseball");
  await page.getByLabel("Confirm New Password").fill("baseball");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("This password is not allowed")).toBeVisible();
  await page.getByLabel("New Password", { exact: true }).fill("birch-trail-2026");
  await page.getByLabel("Confirm New Password").fill("birch-trail-2026");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("Your password is set.")).toBeVisible();

  // Sign out, then in with the password.
  await signOut(page);
  await signInWithPassword(page, "birch-trail-2026");
  await page.waitForURL(url(MAIN, "/manage"));

  // Turn on two-factor from the typed secret.
  await page.goto(url(MAIN, "/manage/security"));
  await page.getByRole("button", { name: "Set up two-factor" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!;
  await page.getByLabel("6-digit code").fill(totpCode(secret));
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(page.getByText("Two-factor authentication is on.")).toBeVisible();

  // Sign in again: password, then a wrong code (field cleared), then the right one, pasted with a space.
  await signOut(page);
  await signInWithPassword(page, "birch-trail-2026");
  await page.waitForURL(url(MAIN, "/login/totp"));
  const right = totpCode(secret, 1);
  const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
  await page.getByLabel("6-digit code").fill(wrong);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Incorrect Code")).toBeVisible();
  await expect(page.getByLabel("6-digit code")).toHaveValue("");
  await page.getByLabel("6-digit code").fill(`${right.slice(0, 3)} ${right.slice(3)}`);
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL(url(MAIN, "/manage"));

  // Register a passkey with a virtual authenticator.
  await addVirtualAuthenticator(context, page);
  await page.goto(url(MAIN, "/login/managePasskey"));
  await waitForHydration(page);
  await expect(page.getByText("No passkeys yet.")).toBeVisible();
  await page.getByRole("button", { name: "Add New Passkey" }).click();
  const row = page.getByRole("row").filter({ hasText: MAIN });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell", { name: "Never" })).toBeVisible();

  // Sign in with it.
  await signOut(page);
  await page.goto(url(MAIN, "/login"));
  await waitForHydration(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await page.waitForURL(url(MAIN, "/manage"));

  // Remove it, after confirming.
  await page.goto(url(MAIN, "/login/managePasskey"));
  await expect(page.getByRole("row").filter({ hasText: MAIN }).getByRole("cell", { name: "Never" })).toHaveCount(0);
  await page.getByRole("link", { name: /Remove passkey/ }).click();
  await expect(page.getByText("Remove this passkey?")).toBeVisible();
  await page.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("Passkey removed.")).toBeVisible();
  await expect(page.getByText("No passkeys yet.")).toBeVisible();

  await signOut(page);
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
});

test("a club admin switches role and signs out", async ({ page }) => {
  const coach = demoUsers[1];
  const race = demoRaces(Date.now())[0]!;
  await page.goto(url(MAIN, "/login"));
  await signInWithPasswordFrom(page, coach.email, coach.password);
  await page.waitForURL(url(MAIN, "/manage"));

  const raceAdmin = page.getByRole("listitem").filter({ hasText: "Race Administrator" });
  await raceAdmin.getByRole("link", { name: "Switch to this role" }).click();
  await page.waitForURL(url(MAIN, `/race/${race.id}/admin`));
  await expect(page.getByRole("heading", { level: 1, name: race.name })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Race administration" })).toBeVisible();

  // Now narrowed to the race role, the club's pages are closed.
  const clubPage = await page.goto(url(MAIN, `/club/${coach.role.clubId}/overview`));
  expect(clubPage?.status()).toBe(403);
  await page.goto(url(MAIN, "/manage"));
  await expect(raceAdmin.getByText("Active role")).toBeVisible();

  // With pause, the switch waits for 'Complete Switch'.
  await page.goto(url(MAIN, `/login/switch?role=${coach.role.id}&goto=${encodeURIComponent(`/club/${coach.role.clubId}/overview`)}&pause=1`));
  await expect(page.getByRole("heading", { name: "Switching to new permissions..." })).toBeVisible();
  await expect(page.getByRole("list", { name: "Details" })).toContainText("Role: Organization Admin");
  await page.getByRole("button", { name: "Complete Switch" }).click();
  await page.waitForURL(url(MAIN, `/club/${coach.role.clubId}/overview`));

  // A role the user does not hold is refused.
  await page.goto(url(MAIN, `/login/switch?role=${demoUsers[0].role.id}&goto=%2Fmanage`));
  await expect(page.getByText("Error completing switch")).toBeVisible();

  await signOut(page);
});

test("an unknown sign-in path says so and returns to /login after 3 seconds", async ({ page }) => {
  await page.goto(url(MAIN, "/login/nowhere"));
  await expect(page.getByRole("heading", { name: "Invalid path, redirecting..." })).toBeVisible();
  await page.waitForURL(url(MAIN, "/login"), { timeout: 6_000 });
});

test("a sign-in on the main host completes on the club's own site", async ({ page }) => {
  const coach = demoUsers[1];
  await page.goto(url(MAIN, "/login?domain=demo.localhost&goto=%2Fmanage"));
  await signInWithPasswordFrom(page, coach.email, coach.password);
  // The session is made for the club's host and claimed there by its /_auth/login.
  await page.waitForURL(url("demo.localhost", "/manage"));
  await expect(page.getByRole("heading", { name: `Hello, ${coach.name}` })).toBeVisible();
  await expect(page.locator(".site-header")).toContainText("Nordic Demo Club");
  // The main host has no session of its own from this.
  await page.goto(url(MAIN, "/manage"));
  await expect(page).toHaveURL(/\/login\?goto=%2Fmanage/);
});
