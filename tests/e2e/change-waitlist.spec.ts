import { expect, test } from "@playwright/test";
import { openMail, url, waitForHydration } from "./hosts";
import { cancelFromReceipt, receiptPath, registered, riversideRace, RIVERSIDE_SITE } from "./riverside-pages";

// Decision 0066: the Riverside demo form's Kids' 3 km has 2 places and a waitlist. A registrant paid for 12 km asks
// to change to the full Kids' 3 km, joins its waitlist from the change form, is offered the place when a kid
// cancels, and accepts it from the mailed link: the page quotes the refund first (in French too, in a second tab), and
// accepting in both tabs changes the entry once, refunds once, and tells the second tab in its language.
test("a change to a full option waits on its waitlist, and the mailed offer changes the paid entry once accepted", async ({ browser, page }) => {
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36);
  const email = (who: string) => `${who}-chg-${stamp}@example.com`;
  const last = `Wait${stamp}`;

  const ava = await registered(browser, "Ava", last, email("ava"), "Kids' 3 km — $15.00");
  const bo = await registered(browser, "Bo", last, email("bo"), "Kids' 3 km — $15.00");
  const cal = await registered(browser, "Cal", last, email("cal"), "12 km — $40.00");

  // Cal asks for the full Kids' 3 km: the change form says so and offers its waitlist; a double click joins once.
  await cal.getByRole("link", { name: "Change these details" }).click();
  const change = cal.getByTestId("person-change");
  await change.getByLabel(/^Distance/).selectOption("3k");
  await change.getByRole("button", { name: "Save the change" }).click();
  await expect(cal.getByRole("alert")).toHaveText("Kids' 3 km: Sold out");
  await expect(cal.getByTestId("change-waitlist")).toHaveText(
    "Kids' 3 km is full. Join its waitlist: when a place opens, we will email you an offer to make this change.",
  );
  await cal.getByRole("button", { name: "Join the waitlist for this change" }).dblclick();
  await expect(cal.getByTestId("change-waitlisted")).toHaveText(
    `Cal ${last} is number 1 on the waitlist for Kids' 3 km. We will email ${email("cal")} if a place opens; nothing changes until you accept it.`,
  );

  // Ava cancels: the place is offered to Cal by mail.
  await cancelFromReceipt(ava);
  const offer = await openMail(page, email("cal"), `A place is free: ${riversideRace.name}`);
  await expect(offer).toContainText(`A place in Kids' 3 km (${riversideRace.name}) has opened for Cal ${last} and is held until`);
  const link = (await offer.getByRole("link").first().getAttribute("href"))!;
  await cal.goto(link);
  await expect(cal.getByTestId("offer-status")).toContainText(`A place in Kids' 3 km is held for Cal ${last} until`);
  // Before Accept, the page says what accepting does: the distance now and offered, and the refund (decision 0072).
  await expect(cal.getByTestId("offer-quote").getByRole("row", { name: /Distance/ })).toHaveText("Distance12 kmKids' 3 km");
  const refund = cal.getByTestId("offer-difference").first();
  await expect(refund).toHaveText(/^Price difference refunded: \$\d+\.\d\d\.$/);
  const refunded = /\$\d+\.\d\d/.exec((await refund.textContent())!)![0];

  // The same offer open in a second tab of the same browser, in French: the refund written the French way.
  const tab = await cal.context().newPage();
  await tab.goto(`${link}&lang=fr`);
  await expect(tab.getByTestId("offer-quote").getByRole("row", { name: /Distance/ })).toHaveText("Distance12 km3 km jeunesse");
  const french = `${refunded.slice(1).replace(".", ",")}\u00a0$`;
  await expect(tab.getByTestId("offer-difference").first()).toHaveText(`Différence remboursée : ${french}.`);
  await waitForHydration(tab);

  // Accepted with a double click in the first tab, then in the second: one change, one refund, and the second
  // tab is told in its language that the entry was changed already.
  await waitForHydration(cal);
  await cal.getByRole("button", { name: "Accept the change" }).dblclick();
  await expect(cal.getByTestId("offer-status")).toHaveText("The entry was changed. The updated receipt was sent by email.");
  await tab.getByRole("button", { name: "Accepter le changement" }).click();
  await expect(tab.getByRole("button", { name: "Accepter le changement" })).toHaveCount(0);
  await expect(tab.getByTestId("offer-status")).toHaveText("L'inscription a été modifiée. Le reçu à jour vous a été envoyé par courriel.");
  await tab.close();

  // The receipt reads the new distance, and the mail says the change once.
  await cal.goto(url(RIVERSIDE_SITE, receiptPath));
  await expect(cal.getByTestId("receipt-item").filter({ hasText: "Kids' 3 km" })).toBeVisible();
  await expect(cal.getByTestId("receipt-item").filter({ hasText: "12 km" })).toHaveCount(0);
  // The receipt's refund is the figure the offer quoted, refunded once.
  await expect(cal.getByText(refunded)).not.toHaveCount(0);
  const changed = await openMail(page, email("cal"), `Registration changed: ${riversideRace.name}`);
  await expect(changed).toContainText(refunded);
  await expect(page.getByRole("article", { name: `Registration changed: ${riversideRace.name}` }).filter({ hasText: `To ${email("cal")}` })).toHaveCount(1);

  // Both kids' places are given back, so the demo's waitlist test finds its race as the seed made it.
  for (const who of [bo, cal]) await cancelFromReceipt(who);
});
