import { expect, test, type Page } from "@playwright/test";
import { demoRaces, demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const MAIN = "localhost";

/** Opens the newest captured mail to `email` whose text matches, and follows its first link. */
async function followMailLink(page: Page, email: string, hasText: string | RegExp) {
  await page.goto(url(MAIN, "/dev/mail"));
  await page
    .getByRole("article")
    .filter({ hasText: `To ${email}` })
    .filter({ hasText })
    .first()
    .getByRole("link")
    .first()
    .click();
}

test("a club admin invites a race timer, who accepts and lands on the race", async ({ browser }) => {
  test.setTimeout(90_000);
  const race = demoRaces(Date.now())[0]!;
  const coach = demoUsers.find((u) => u.email === "coach@nordic-demo.local")!;
  const email = `timer-${Date.now()}@example.com`;

  // The timer has an account: sign up and sign in with the e-mailed link.
  const timer = await (await browser.newContext()).newPage();
  await timer.goto(url(MAIN, "/signup"));
  await waitForHydration(timer);
  await timer.getByLabel("Email address").fill(email);
  await timer.getByLabel("Name").fill("Tess Timer");
  await timer.getByRole("button", { name: "Create an Account" }).click();
  await timer.waitForURL(/\/welcome/);
  await followMailLink(timer, email, "sign");
  await timer.waitForURL(/\/login\/passkey/);
  await timer.getByRole("button", { name: "Skip for Now..." }).click();
  await timer.waitForURL(url(MAIN, "/manage"));

  // The club's admin invites them from the race's People tab.
  const admin = await (await browser.newContext()).newPage();
  await admin.goto(url(MAIN, "/login"));
  await waitForHydration(admin);
  await signInWithPasswordFrom(admin, coach.email, coach.password);
  await admin.goto(url(MAIN, `/race/${race.id}/admin/people`));
  await waitForHydration(admin);
  await admin.getByLabel("E-mail address").fill(email);
  await admin.getByLabel("Role").selectOption({ label: "Race Timer" });
  await admin.getByRole("button", { name: "Send the invitation" }).click();
  await expect(admin.getByText("Invitation sent.")).toBeVisible();
  await expect(admin.getByText(`${email} as Race Timer`)).toBeVisible();

  // The timer follows the mail's link, accepts, and is on the race with the role.
  await followMailLink(timer, email, "invites you");
  await expect(timer.getByRole("heading", { name: `Race Timer of ${race.name}` })).toBeVisible();
  await waitForHydration(timer);
  await timer.getByRole("button", { name: "Accept the invitation" }).click();
  await timer.waitForURL(url(MAIN, `/race/${race.id}/overview`));
  await expect(timer).toHaveTitle(`Race Overview · ${race.name}`);
  await timer.goto(url(MAIN, "/manage"));
  await expect(timer.getByText("Race Timer").first()).toBeVisible();

  // The admin sees them among the race's people.
  await admin.reload();
  await expect(admin.getByRole("rowheader", { name: /Tess Timer/ })).toBeVisible();
});
