// The fake's hosted Checkout page: line items, total, a card-number field and a Pay button, enough for a browser test to pay.
import { formatDollars, type CheckoutSession, type LineItem } from "./objects";

export interface CheckoutPageInput {
  session: CheckoutSession;
  lineItems: readonly LineItem[];
  businessName: string;
  /** A card error shown above the form (role="alert"). */
  error?: string;
}

/** A page of the fake's as a response. */
export function html(status: number, body: string): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; color: #1a1f36; }
  .test-mode { background: #fff4e5; border: 1px solid #f5a623; padding: .5rem .75rem; border-radius: 4px; font-size: .875rem; }
  table { width: 100%; border-collapse: collapse; margin: 1rem 0; }
  td, th { padding: .4rem 0; text-align: left; } td.amount, th.amount { text-align: right; }
  tfoot th { border-top: 1px solid #e3e8ee; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input { width: 100%; box-sizing: border-box; font-size: 1rem; padding: .5rem; }
  button { margin-top: 1rem; width: 100%; font-size: 1rem; padding: .75rem; background: #635bff; color: #fff; border: 0; border-radius: 4px; }
  [role="alert"] { color: #df1b41; margin: .75rem 0; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function itemsTable(session: CheckoutSession, lineItems: readonly LineItem[]): string {
  const rows = lineItems
    .map(
      (item) =>
        `<tr><td>${escapeHtml(item.description)}${item.quantity > 1 ? ` × ${item.quantity}` : ""}</td><td class="amount">${formatDollars(item.amount_total)}</td></tr>`,
    )
    .join("\n");
  return `<table aria-label="Order summary">
<tbody>
${rows}
</tbody>
<tfoot><tr><th scope="row">Total due (${escapeHtml(session.currency.toUpperCase())})</th><th class="amount" data-testid="total">${formatDollars(session.amount_total)}</th></tr></tfoot>
</table>`;
}

/** The page for an open session; after a declined card it is shown again with the error. */
export function renderCheckoutPage(input: CheckoutPageInput): string {
  const { session, lineItems, businessName, error } = input;
  const total = formatDollars(session.amount_total);
  const alert = error ? `<p role="alert">${escapeHtml(error)}</p>\n` : "";
  const cancel = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p>` : "";
  return layout(
    `Pay ${businessName}`,
    `<p class="test-mode">Test mode (Stripe fake). Pay with 4242 4242 4242 4242; 4000 0000 0000 0002 is declined.</p>
<h1>Pay ${escapeHtml(businessName)}</h1>
${itemsTable(session, lineItems)}
${alert}<form method="post" action="/c/pay/${encodeURIComponent(session.id)}">
<label for="card">Card number</label>
<input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required${error ? ' aria-invalid="true"' : ""}>
<button type="submit">Pay ${total}</button>
</form>
${cancel}`,
  );
}

/** A session that can no longer be paid: already paid, or expired. */
export function renderClosedPage(session: CheckoutSession, businessName: string): string {
  if (session.status === "complete") {
    const successUrl = session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id);
    return layout(
      `Paid ${businessName}`,
      `<h1>Payment complete</h1>
<p>This checkout session is complete: ${formatDollars(session.amount_total)} was paid to ${escapeHtml(businessName)}.</p>
<p><a href="${escapeHtml(successUrl)}">Continue</a></p>`,
    );
  }
  return layout(
    "Checkout session expired",
    `<h1>This checkout session has expired</h1>
<p>Nothing was charged. Go back and start checkout again.</p>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Back</a></p>` : ""}`,
  );
}

export function renderNotFoundPage(): string {
  return layout("Not found", `<h1>Something went wrong</h1>\n<p>The page you were looking for could not be found.</p>`);
}
