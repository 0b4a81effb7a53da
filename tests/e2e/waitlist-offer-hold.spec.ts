import { expect, test } from "@playwright/test";
import { cancelFromReceipt, fillPerson, joinKidsWaitlist, KIDS, leaveOfferCardPage, payOfferAgain, registered } from "./riverside-pages";

// Decision 0075: the Riverside demo form's Kids' 3 km has 2 places and a waitlist. A kid cancels and the first in
// line is offered the place; she opens the card page from the offer, leaves it, and Stripe expires it. The place
// stays hers for the offer's time: another registrant is told the race is full, and she comes back from the mail
// and pays (a double click on Pay), once.

test("a waitlist offer keeps its place while its card page expires, and the registrant comes back and takes it", async ({ browser, page }) => {
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36);
  const email = (who: string) => `${who}-hold-${stamp}@example.com`;
  const last = `Hold${stamp}`;

  const ava = await registered(browser, "Ava", last, email("ava"), KIDS);
  const bo = await registered(browser, "Bo", last, email("bo"), KIDS);

  // Cal finds the race full and joins its waitlist.
  const cal = await (await browser.newContext()).newPage();
  await fillPerson(cal, "Cal", last, email("cal"), KIDS);
  await joinKidsWaitlist(cal, email("cal"));

  // Ava cancels; Cal opens her offer, goes to the card page and leaves it; Stripe expires it.
  await cancelFromReceipt(ava);
  const offer = await leaveOfferCardPage(cal, page, email("cal"));
  await cal.reload();
  await expect(cal.getByText("This checkout session has expired")).toBeVisible();

  // Dee, meanwhile, is told the race is full: the place is still held for Cal.
  const dee = await (await browser.newContext()).newPage();
  await fillPerson(dee, "Dee", last, email("dee"), KIDS);
  await dee.getByRole("button", { name: "Add to cart" }).click();
  await expect(dee.getByRole("alert")).toHaveText("Kids' 3 km is full. Join the waitlist and we will email you if a place opens.");

  // Cal comes back from her mail within the offer's time and pays, with a double click on Pay.
  await payOfferAgain(cal, page, email("cal"), offer);
  await expect(cal.getByText(`Cal ${last}`).first()).toBeVisible();

  // The kids' places are given back, so the other waitlist tests find the race as the seed made it.
  for (const who of [bo, cal]) await cancelFromReceipt(who);
});
