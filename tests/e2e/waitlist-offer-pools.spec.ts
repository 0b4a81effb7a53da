import { expect, test, type Page } from "@playwright/test";
import { demoUsers } from "../../scripts/demo-data";
import { signInWithPasswordFrom, url, waitForHydration } from "./hosts";
import {
  cancelFromReceipt,
  fillPerson,
  joinKidsWaitlist,
  KIDS,
  leaveOfferCardPage,
  payOfferAgain,
  registered,
  riversideRace,
  RIVERSIDE_SITE,
} from "./riverside-pages";

// Decision 0078: an offer holds every capped choice it made for its person, not only the one waited for. The
// organiser adds a "T-shirt size" with one Small left to the Riverside form; Cal joins the full Kids' 3 km's waitlist
// with a Small, is offered a kid's place, opens the card page and leaves it, and Stripe expires it. The Small stays hers
// with the place for the offer's time: Dee is told it is gone; Cal comes back and pays for both, once.
const SHIRT = "T-shirt size";
const builder = `/registration/${riversideRace.id}/admin`;

/** The system administrator on the Riverside form's builder. */
async function organiser(page: Page): Promise<void> {
  const admin = demoUsers.find((u) => u.role.type === "system_admin")!;
  await page.goto(url(RIVERSIDE_SITE, builder));
  if (new URL(page.url()).pathname.startsWith("/login")) {
    await signInWithPasswordFrom(page, admin.email, admin.password);
    await page.goto(url(RIVERSIDE_SITE, builder));
  }
  await waitForHydration(page);
}

test("a waitlist offer keeps the offered T-shirt with the place while its card page expires", async ({ browser, page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const email = (who: string) => `${who}-pools-${stamp}@example.com`;
  const last = `Pools${stamp}`;

  // The organiser adds a T-shirt size field with one Small left.
  const staff = await (await browser.newContext()).newPage();
  await organiser(staff);
  await staff.getByLabel("Type", { exact: true }).selectOption({ label: "Option (choose one)" });
  await staff.getByLabel("Caption", { exact: true }).fill(SHIRT);
  await staff.getByRole("button", { name: "Add field" }).click();
  await expect(staff.getByRole("heading", { level: 2, name: `Option (choose one): ${SHIRT}` })).toBeVisible();
  await waitForHydration(staff);
  for (const [n, size, limit] of [
    [1, "Small", "1"],
    [2, "Medium", ""],
  ] as const) {
    await staff.getByRole("button", { name: "Add option" }).click();
    await staff.getByLabel(`Option ${n}: shown as`).fill(size);
    if (limit) await staff.getByLabel(`Option ${n}: limit`).fill(limit);
  }
  const saved = staff.waitForResponse((r) => r.request().method() === "POST" && r.status() < 400);
  await staff.getByRole("button", { name: "Save field" }).click();
  await saved;
  const fieldPath = new URL(staff.url()).pathname;
  await staff.goto(url(RIVERSIDE_SITE, fieldPath));
  await expect(staff.getByLabel("Option 1: limit")).toHaveValue("1");

  try {
    const ava = await registered(browser, "Ava", last, email("ava"), KIDS);
    const bo = await registered(browser, "Bo", last, email("bo"), KIDS);

    // Cal wants the full Kids' 3 km and a Small (not full): she joins the waitlist with both.
    const cal = await (await browser.newContext()).newPage();
    await fillPerson(cal, "Cal", last, email("cal"), KIDS);
    await cal.getByRole("group", { name: SHIRT }).getByRole("radio", { name: "Small" }).check();
    await joinKidsWaitlist(cal, email("cal"));

    // Ava cancels; Cal opens her offer, goes to the card page and leaves it; Stripe expires it.
    await cancelFromReceipt(ava);
    const offer = await leaveOfferCardPage(cal, page, email("cal"));

    // Dee, meanwhile, wants a 12 km with a Small: it is still held for Cal.
    const dee = await (await browser.newContext()).newPage();
    await fillPerson(dee, "Dee", last, email("dee"), "12 km — $40.00");
    await dee.getByRole("group", { name: SHIRT }).getByRole("radio", { name: "Small" }).check();
    await dee.getByRole("button", { name: "Add to cart" }).click();
    await expect(dee.getByRole("alert")).toHaveText("Small is full. Join the waitlist and we will email you if a place opens.");

    // Cal comes back from her mail within the offer's time and pays for both, with a double click on Pay.
    await payOfferAgain(cal, page, email("cal"), offer);
    await expect(cal.getByText(`Cal ${last}`).first()).toBeVisible();

    // The Small is Cal's now: Dee asking again is still told it is full.
    await fillPerson(dee, "Dee", last, email("dee"), "12 km — $40.00");
    await dee.getByRole("group", { name: SHIRT }).getByRole("radio", { name: "Small" }).check();
    await dee.getByRole("button", { name: "Add to cart" }).click();
    await expect(dee.getByRole("alert")).toHaveText("Small is full. Join the waitlist and we will email you if a place opens.");

    // The kids' places are given back, so the other waitlist tests find the race as the seed made it.
    for (const who of [bo, cal]) await cancelFromReceipt(who);
  } finally {
    // The T-shirt goes again: the other Riverside tests fill the form as the seed made it.
    await staff.goto(url(RIVERSIDE_SITE, `${builder}?delete=${fieldPath.split("/").pop()}`));
    await staff.getByRole("button", { name: "Delete field" }).click();
    await expect(staff.getByRole("link", { name: SHIRT })).toHaveCount(0);
  }
});
