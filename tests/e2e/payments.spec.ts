import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";
import { demoRegistrations, demoSites, demoUsers } from "../../scripts/demo-data";
import { openMail, signInWithPasswordFrom, url, waitForHydration } from "./hosts";

const NORDIC_SITE = demoSites[0].hostname;
const RIVERSIDE_SITE = demoSites[1].hostname;
const demoForms = demoRegistrations(Date.now());
const winterLoppet = demoForms.find((r) => r.siteId === demoSites[0].id)!;
const riversideRace = demoForms.find((r) => r.siteId === demoSites[1].id)!;
// scripts/serve-test.ts starts the Stripe fake beside the Worker, on STRIPE_FAKE_PORT or the Worker's port + 3400.
const STRIPE_FAKE_ORIGIN = `http://127.0.0.1:${process.env.STRIPE_FAKE_PORT ?? E2E_PORT + 3400}`;

/** "$1,234.50" as cents. */
function centsOf(text: string): number {
  const match = /(-|−)?\$([\d,]+)\.(\d\d)/.exec(text);
  if (!match) throw new Error(`no amount in ${JSON.stringify(text)}`);
  return (match[1] ? -1 : 1) * (Number(match[2]!.replaceAll(",", "")) * 100 + Number(match[3]));
}

/** "12.50" (a CSV money cell) as cents; a blank cell is 0. */
function csvCents(text: string): number {
  if (text === "") return 0;
  const match = /^(-)?(\d+)\.(\d\d)$/.exec(text);
  if (!match) throw new Error(`not a CSV amount: ${JSON.stringify(text)}`);
  return (match[1] ? -1 : 1) * (Number(match[2]) * 100 + Number(match[3]));
}

/** RFC 4180: quoted cells with doubled quotes, CRLF between records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell !== "" || record.length > 0) records.push([...record, cell]);
  return records;
}

/** The price table's rows (subtotal, tax, fee, total) as cents; a row that is not shown is 0. */
async function priceTableOf(page: Page) {
  const row = async (id: string) => ((await page.getByTestId(`price-${id}`).count()) === 0 ? 0 : centsOf(await page.getByTestId(`price-${id}`).innerText()));
  return { subtotal: await row("subtotal"), tax: await row("tax"), fee: await row("fee"), total: await row("total") };
}

test("a registrant on a card-taking club's site pays by card on Stripe's page and gets the receipt by email @phone", async ({ page }) => {
  const stamp = Date.now().toString(36);
  const email = `card-${stamp}@example.com`;
  const lastName = `Cardholder${stamp}`;

  // One person, 12 km, on the Riverside club's own site.
  await page.goto(url(RIVERSIDE_SITE, `/register/${riversideRace.id}`));
  await expect(page.getByRole("heading", { name: "Who is registering?" })).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("First name").fill("Kim");
  await page.getByLabel("Last name").fill(lastName);
  await page.getByRole("textbox", { name: /^Email/ }).fill(email);
  await page.getByLabel(/^Distance/).selectOption({ label: "12 km — $40.00" });
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("heading", { name: /Your cart/ })).toBeVisible();

  // 40.00, 13% tax on it, and the system fee of a club that takes cards: the table's lines add up to its total.
  const price = await priceTableOf(page);
  expect(price).toEqual({ subtotal: 4000, tax: 520, fee: 100, total: 4620 });
  expect(price.subtotal + price.tax + price.fee).toBe(price.total);
  await expect(page.getByLabel("Email for the receipt")).toHaveValue(email);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("heading", { name: "Ready to pay" })).toBeVisible();
  await expect(page.getByTestId("amount-due")).toHaveText("$46.20");

  // Stripe's hosted page (the local fake), on its own origin.
  await page.getByRole("button", { name: "Pay $46.20 by card" }).click();
  await page.waitForURL((u) => u.origin === STRIPE_FAKE_ORIGIN && /^\/c\/pay\/cs_/.test(u.pathname));
  await expect(page.getByTestId("total")).toHaveText("$46.20");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $46.20" }).click();

  // Back on the club's site: the confirming step, then the receipt.
  await page.waitForURL(url(RIVERSIDE_SITE, `/register/${riversideRace.id}/receipt`), { timeout: 15_000 });
  await expect(page.getByTestId("receipt-heading")).toHaveText("Registration complete");
  await expect(page.getByRole("row", { name: new RegExp(`Kim ${lastName}`) })).toContainText("$46.20");
  await expect(page.getByTestId("receipt-total")).toHaveText("$46.20");
  await expect(page.getByTestId("receipt-paid")).toHaveText("$46.20");
  await expect(page.getByTestId("receipt-due")).toHaveCount(0);
  await expect(page.getByText("Payment by card: $46.20")).toBeVisible();

  // The receipt email, and its link opens the receipt again (without the cart's cookie).
  const mail = await openMail(page, email, `Receipt: ${riversideRace.name}`);
  await expect(mail).toContainText(`Kim ${lastName}: $46.20`);
  await expect(mail).toContainText("Total: $46.20");
  await expect(mail).toContainText("Paid: $46.20");
  await expect(mail).not.toContainText("To pay the club");
  const link = await mail.getByRole("link").first().getAttribute("href");
  expect(link).toMatch(new RegExp(`^${url(RIVERSIDE_SITE, `/register/${riversideRace.id}/receipt`).replaceAll(".", "\\.")}\\?receipt=`));
  await page.context().clearCookies();
  await page.goto(link!);
  await expect(page.getByTestId("receipt-heading")).toHaveText("Registration complete");
  await expect(page.getByTestId("receipt-paid")).toHaveText("$46.20");

  // From the emailed link, the registrant cancels under the form's policy: 90% of 46.20, less 5.00.
  await waitForHydration(page);
  await page.getByText("Cancel this registration").click();
  await expect(page.getByText("Cancelling refunds $36.58.")).toBeVisible();
  await page.getByRole("button", { name: "Yes, cancel it" }).dblclick();
  await expect(page.getByTestId("cancelled-notice")).toHaveText("The registration is cancelled. $36.58 is being refunded.");
  await expect(page.getByText("Refund by card: $36.58")).toBeVisible();
  const cancelled = await openMail(page, email, `Cancellation: ${riversideRace.name}`);
  await expect(cancelled).toContainText("$36.58 is being refunded.");
});

test("en français: a registrant on the bilingual Riverside form pays by card; the form, the receipt and its email are in French, money written the French way; the entry is then transferred for a fee", async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const email = `carte-${stamp}@example.com`;
  const lastName = `Payeur${stamp}`;
  const nbsp = "\u00a0";
  await page.goto(url(RIVERSIDE_SITE, `/register/${riversideRace.id}?lang=fr`));
  await expect(page.getByRole("heading", { name: "Qui s’inscrit ?" })).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Prénom").fill("Élise");
  await page.getByLabel("Nom de famille").fill(lastName);
  await page.getByRole("textbox", { name: /^Courriel/ }).fill(email);
  await page.getByLabel(/^Distance/).selectOption({ label: `12 km — 40,00${nbsp}$` });
  await page.getByRole("button", { name: "Ajouter au panier" }).click();
  await expect(page.getByRole("heading", { name: /Votre panier/ })).toBeVisible();
  await page.getByRole("button", { name: "Continuer vers le paiement" }).click();
  await expect(page.getByTestId("amount-due")).toHaveText(`46,20${nbsp}$`);
  await page.getByRole("button", { name: `Payer 46,20${nbsp}$ par carte` }).click();
  await page.waitForURL((u) => u.origin === STRIPE_FAKE_ORIGIN && /^\/c\/pay\/cs_/.test(u.pathname));
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $46.20" }).click();

  await page.waitForURL((u) => u.pathname === `/register/${riversideRace.id}/receipt`, { timeout: 15_000 });
  await expect(page.getByTestId("receipt-heading")).toHaveText("Inscription terminée");
  await expect(page.getByTestId("receipt-total")).toHaveText(`46,20${nbsp}$`);
  await expect(page.getByTestId("receipt-item").filter({ hasText: "Distance : 12 km" })).toContainText(`40,00${nbsp}$`);
  await expect(page.getByText(/Paiement par carte : 46,20.\$ le \d{1,2} \p{L}+ \d{4}/u)).toBeVisible();

  const mail = await openMail(page, email, `Reçu : ${riversideRace.name}`);
  await expect(mail).toContainText(`Élise ${lastName} : 46,20${nbsp}$`);
  await expect(mail).toContainText("Frais de traitement");
  const link = await mail.getByRole("link").first().getAttribute("href");
  expect(link).toContain("lang=fr");

  // From the mail, on another device: the entry is transferred to someone else for the form's 10,00 $ fee,
  // paid on Stripe's page before it changes hands.
  await page.context().clearCookies();
  await page.goto(link!);
  await page.getByRole("link", { name: "Transférer à quelqu'un d'autre" }).click();
  const transfer = page.getByTestId("person-change");
  await expect(transfer.getByTestId("transfer-fee")).toHaveText(`Le transfert coûte 10,00${nbsp}$, payé par carte avant que l'inscription change de mains.`);
  await expect(transfer.getByLabel(/^Distance/)).toHaveCount(0);
  await transfer.getByLabel("Prénom").fill("Luc");
  await transfer.getByLabel("Nom de famille").fill(lastName);
  await transfer.getByRole("textbox", { name: /^Courriel/ }).fill(`luc-${stamp}@example.com`);
  await transfer.getByRole("button", { name: "Transférer l'inscription" }).dblclick();
  await page.waitForURL((u) => u.origin === STRIPE_FAKE_ORIGIN && /^\/c\/pay\/cs_/.test(u.pathname));
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $10.00" }).click();
  await page.waitForURL((u) => u.pathname === `/register/${riversideRace.id}/receipt`, { timeout: 15_000 });
  await expect(page.getByTestId("changed-notice")).toHaveText("La modification est enregistrée.");
  await expect(page.getByRole("row", { name: new RegExp(`Luc ${lastName}`) })).toBeVisible();
  await expect(page.getByTestId("receipt-item").filter({ hasText: "Frais de transfert" })).toContainText(`10,00${nbsp}$`);
  await expect(page.getByTestId("receipt-total")).toHaveText(`56,20${nbsp}$`);
  const transferred = await openMail(page, email, `Inscription transférée : ${riversideRace.name}`);
  await expect(transferred).toContainText(`L'inscription de Élise ${lastName} à ${riversideRace.name} a été transférée à Luc ${lastName}.`);
});

test("a registrant pays the club by cheque; the club admin records it, refunds part, and the report and its CSV show the cart", async ({ browser, page }) => {
  test.setTimeout(60_000);
  const coach = demoUsers.find((u) => u.role.type === "org_admin")!;
  const stamp = Date.now().toString(36);
  const email = `cheque-${stamp}@example.com`;
  const lastName = `Chequewriter${stamp}`;

  // 1. A registrant on the Nordic club's site (no cards there) registers two people: the mandatory fields,
  //    a distance each, the waiver.
  const people = [
    { first: "Lee", distance: "10 km classic — $45.00" },
    { first: "Max", distance: "25 km classic — $60.00" },
  ];
  await page.goto(url(NORDIC_SITE, `/register/${winterLoppet.id}`));
  await expect(page.getByRole("heading", { name: "Who is registering?" })).toBeVisible();
  for (const [i, person] of people.entries()) {
    if (i > 0) {
      await page.getByRole("link", { name: "Add another person" }).click();
      await expect(page.getByRole("heading", { name: `Person ${i + 1}` })).toBeVisible();
    }
    await waitForHydration(page);
    await page.getByLabel("First name").fill(person.first);
    await page.getByLabel("Last name").fill(lastName);
    await page.getByRole("textbox", { name: /^Email/ }).fill(email);
    await page.getByLabel(/^Date of birth/).fill(`199${i}-04-05`);
    await page.getByLabel(/^Distance/).selectOption({ label: person.distance });
    await page.getByRole("checkbox", { name: /I have read and agree: Waiver/ }).check();
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByRole("heading", { name: /Your cart/ })).toBeVisible();
  }
  // 45.00 + 60.00 and 13% tax on both; a club without cards charges no system fee.
  await expect(page.getByTestId("cart-person")).toHaveText([new RegExp(`Lee ${lastName}\\s*\\$50\\.85`), new RegExp(`Max ${lastName}\\s*\\$67\\.80`)]);
  const price = await priceTableOf(page);
  expect(price).toEqual({ subtotal: 10500, tax: 1365, fee: 0, total: 11865 });
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByTestId("amount-due")).toHaveText("$118.65");
  await expect(page.getByRole("button", { name: /by card/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Register now, pay the club by cash or cheque" }).click();
  await expect(page.getByTestId("receipt-heading")).toHaveText("Registration confirmed: payment due");
  await expect(page.getByTestId("receipt-total")).toHaveText("$118.65");
  await expect(page.getByTestId("receipt-paid")).toHaveText("$0.00");
  await expect(page.getByTestId("receipt-due")).toHaveText("$118.65");
  const confirmation = await openMail(page, email, `Registration confirmed: ${winterLoppet.name}`);
  await expect(confirmation).toContainText("Total: $118.65");
  await expect(confirmation).toContainText("To pay the club by cash or cheque: $118.65");

  // 2. The club admin opens the form's Payments tab and finds the cart's pending payment.
  const adminContext = await browser.newContext({ acceptDownloads: true });
  const admin = await adminContext.newPage();
  await admin.goto(url(NORDIC_SITE, `/registration/${winterLoppet.id}/admin`));
  await signInWithPasswordFrom(admin, coach.email, coach.password);
  await admin.waitForURL(url(NORDIC_SITE, `/registration/${winterLoppet.id}/admin`));
  await admin.getByRole("link", { name: "Payments" }).click();
  await expect(admin.getByRole("heading", { name: "Payments" })).toBeVisible();
  await waitForHydration(admin);
  await admin.getByLabel("Search").fill(email);
  await admin.getByRole("button", { name: "Filter" }).click();
  await admin.waitForURL(/[?&]q=/);
  const rows = admin.getByRole("table").getByRole("row").filter({ hasText: email });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("Pending");
  await expect(rows).toContainText("$118.65");

  // 3. Record it as received by cheque, through the confirm step.
  await admin.getByRole("link", { name: `Record payment from ${email} as received` }).click();
  await expect(admin.getByRole("heading", { name: "Record a payment received" })).toBeVisible();
  await expect(admin.getByText("$118.65 from")).toBeVisible();
  await admin.getByLabel("Received as").selectOption("cheque");
  await admin.getByRole("button", { name: "Record as received" }).click();
  await expect(admin.getByText("Payment recorded as received. A confirmation was emailed.")).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("Completed");
  await expect(rows).toContainText("Cheque");

  // 4. Refund 10.00 of it, through the confirm step.
  await admin.getByRole("link", { name: `Refund payment from ${email}` }).click();
  await expect(admin.getByRole("heading", { name: "Refund a payment" })).toBeVisible();
  await expect(admin.getByText("Up to $118.65 can be refunded in cash or by cheque.")).toBeVisible();
  await admin.getByLabel("Amount to refund").fill("10.00");
  await admin.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(admin.getByText("Refund made. The registrant was emailed.")).toBeVisible();
  await expect(rows).toHaveCount(2);
  const refundRow = rows.filter({ hasText: "Refund" }).filter({ hasText: "−$10.00" });
  await expect(refundRow).toHaveCount(1);
  const paymentRow = rows.filter({ hasText: "$118.65" });
  await expect(paymentRow).toContainText("Partly refunded");
  await expect(admin.getByTestId("finance-sums")).toHaveText("2 transactions. Completed payments $118.65, refunds $10.00, net $108.65, system fees $0.00.");
  // What is left can still be refunded, and the partly refunded payment can no longer be voided.
  await expect(admin.getByRole("link", { name: `Refund payment from ${email}` })).toHaveCount(1);
  await expect(paymentRow.getByRole("link", { name: /^Void/ })).toHaveCount(0);
  const refundMail = await openMail(page, email, `Refund: ${winterLoppet.name}`);
  // The mail gives what was paid, the refund, and the net (the report's "Paid (net of refunds)").
  await expect(refundMail).toContainText("Total: $118.65");
  await expect(refundMail).toContainText("Paid: $118.65");
  await expect(refundMail).toContainText("Net paid: $108.65");
  await expect(refundMail).toContainText("Refunded: $10.00");

  // 5. The built-in individuals report lists both people, each with their own total and the cart's payments net of the refund.
  await admin.goto(url(NORDIC_SITE, `/registration/${winterLoppet.id}/reports`));
  await admin.getByRole("link", { name: "All individuals", exact: true }).click();
  await expect(admin.getByRole("heading", { level: 1, name: "All individuals" })).toBeVisible();
  const table = admin.locator("#report-table");
  const headers = await table.locator("thead th").allInnerTexts();
  const column = (label: string) => {
    const at = headers.indexOf(label);
    expect(at, `column ${label} in ${headers.join(" | ")}`).toBeGreaterThanOrEqual(0);
    return at;
  };
  const [cartNoAt, cartEmailAt, cartTotalAt, paidAt, personTotalAt, firstNameAt, lastNameAt] = [
    "Cart No.",
    "Cart email",
    "Cart total",
    "Paid (net of refunds)",
    "Individual total",
    "First name",
    "Last name",
  ].map(column) as [number, number, number, number, number, number, number];
  const expected = [
    { first: "Lee", personTotal: "50.85" },
    { first: "Max", personTotal: "67.80" },
  ];
  const reportRows = table.locator("tbody tr").filter({ hasText: lastName });
  await expect(reportRows).toHaveCount(2);
  for (const [i, want] of expected.entries()) {
    const cells = await reportRows.nth(i).locator("td").allInnerTexts();
    expect([cells[firstNameAt], cells[cartEmailAt], cells[cartTotalAt], cells[paidAt], cells[personTotalAt]]).toEqual([
      want.first,
      email,
      "118.65",
      "108.65",
      want.personTotal,
    ]);
  }
  const pageTotals = await table.locator("tfoot tr").locator("th, td").allInnerTexts();

  // 6. The CSV: UTF-8 with a byte order mark, both people's rows, and a totals row that is the sum of the rows.
  const [download] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("link", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("winter-loppet-2027-all-individuals.csv");
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(3));
  expect(text.endsWith("\r\n")).toBe(true);
  const [header, ...body] = parseCsv(text);
  expect(header).toEqual(headers);
  const totals = body.pop()!;
  expect(totals).toContain(`Total: ${body.length} ${body.length === 1 ? "person" : "people"}`);
  const mine = body.filter((r) => r[lastNameAt] === lastName);
  expect(mine.map((r) => [r[firstNameAt], r[cartEmailAt], r[cartTotalAt], r[paidAt], r[personTotalAt]])).toEqual(
    expected.map((want) => [want.first, email, "118.65", "108.65", want.personTotal]),
  );
  expect(new Set(mine.map((r) => r[cartNoAt])).size).toBe(1);
  // A person's own total is summed over the rows; a cart's money counts once however many people it holds.
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const perCart = (at: number) => sum([...new Map(body.map((r) => [r[cartNoAt]!, csvCents(r[at]!)])).values()]);
  const personSum = sum(body.map((r) => csvCents(r[personTotalAt]!)));
  expect(csvCents(totals[personTotalAt]!)).toBe(personSum);
  expect(csvCents(totals[cartTotalAt]!)).toBe(perCart(cartTotalAt));
  expect(csvCents(totals[paidAt]!)).toBe(perCart(paidAt));
  // Every cart's people add up to its total, so the two totals agree.
  expect(personSum).toBe(perCart(cartTotalAt));
  expect(perCart(paidAt)).toBeLessThan(sum(body.map((r) => csvCents(r[paidAt]!))));
  // The page's totals row says the same.
  for (const at of [cartTotalAt, paidAt, personTotalAt]) expect(pageTotals[at]).toBe(totals[at]);
  await adminContext.close();
});
