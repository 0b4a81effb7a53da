/**
 * The transactions table of the finance pages: the filter bar (a GET form, so filters live in the address
 * and survive a reload), the totals of what matches, a page of rows with their actions, the confirm step of
 * a refund, void or "received", and pagination. Everything works before hydration.
 */
import { Form, Link, useLocation } from "@remix-run/react";
import { formatMoney, formatMoneyWithSymbol } from "../../core/money/money";
import { TRANSACTION_TYPES } from "../../core/payments/ledger";
import type { FinancePageData, FinanceRow } from "../finance.server";
import { SelectField, SetupForm, TextField, useReplyFor } from "./form-kit";

const TYPE_LABELS: Record<string, string> = { payment: "Payment", refund: "Refund", z4fee: "System fee", remittance: "Remittance", division: "Division" };
const METHOD_LABELS: Record<string, string> = { card: "Card", cash: "Cash", cheque: "Cheque" };
const REFUND_LABELS: Record<string, string> = { none: "", partial: "Partly refunded", refunded: "Refunded" };

function statusText(row: FinanceRow): string {
  if (row.isVoid) return "Void";
  return row.completionTime === null ? "Pending" : "Completed";
}

function dateText(time: number): string {
  return new Date(time).toISOString().slice(0, 16).replace("T", " ");
}

/** The same address with some query parameters changed (null removes one). */
function withParams(location: { pathname: string; search: string }, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(location.search);
  for (const key of ["refund", "void", "record", "resend", "saved"]) params.delete(key);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const text = params.toString();
  return `${location.pathname}${text ? `?${text}` : ""}`;
}

function ConfirmStep({ confirm, cancelTo }: { confirm: NonNullable<FinancePageData["confirm"]>; cancelTo: string }) {
  const { row, kind, requestId } = confirm;
  const who = `${row.cartEmail ?? row.payer}${row.cartNumber !== null ? ` (Cart No. ${row.cartNumber})` : ""}`;
  const reply = useReplyFor(kind, row.id);
  return (
    <section className="confirm-panel" aria-labelledby="finance-confirm-heading">
      {kind === "refund" ? (
        <>
          <h3 id="finance-confirm-heading">Refund a payment</h3>
          <p>{`${formatMoneyWithSymbol(row.amount)} paid by ${who}. Up to ${formatMoneyWithSymbol(row.refundable)} can be refunded${row.provider === "stripe" ? " to the card" : " in cash or by cheque"}.`}</p>
          <SetupForm intent="refund" target={row.id} label="Refund" busyLabel="Refunding…" errors={reply.errors} danger>
            <input type="hidden" name="request_id" value={requestId} />
            <TextField
              name="amount"
              label="Amount to refund"
              hint="Dollars and cents, such as 12.50"
              defaultValue={reply.values?.amount ?? formatMoney(row.refundable)}
              error={reply.errors.amount}
              inputMode="decimal"
            />
            <TextField name="note" label="Note (optional)" defaultValue={reply.values?.note ?? ""} maxLength={500} />
          </SetupForm>
        </>
      ) : kind === "resend" ? (
        <>
          <h3 id="finance-confirm-heading">Send the receipt again</h3>
          <p>{`The receipt of ${who} goes to ${row.cartEmail ?? "the cart's address"}. With a new link, the links sent before stop opening it (for a mail that was forwarded).`}</p>
          <SetupForm intent="resend" target={row.id} label="Send it again" busyLabel="Sending…" errors={reply.errors}>
            <input type="hidden" name="request_id" value={requestId} />
          </SetupForm>
          <SetupForm intent="relink" target={row.id} label="Send it with a new link" busyLabel="Sending…" errors={reply.errors}>
            <input type="hidden" name="request_id" value={requestId} />
          </SetupForm>
        </>
      ) : kind === "void" ? (
        <>
          <h3 id="finance-confirm-heading">Void this transaction?</h3>
          <p>{`${TYPE_LABELS[row.type] ?? row.type} of ${formatMoneyWithSymbol(row.amount)} from ${who}. A void transaction no longer counts anywhere${row.provider === "stripe" && row.completionTime === null ? "; the card payment page is closed so it cannot be paid" : ""}.`}</p>
          <SetupForm intent="void" target={row.id} label="Void" busyLabel="Voiding…" errors={reply.errors} danger />
        </>
      ) : (
        <>
          <h3 id="finance-confirm-heading">Record a payment received</h3>
          <p>{`${formatMoneyWithSymbol(row.amount)} from ${who}.`}</p>
          <SetupForm intent="record" target={row.id} label="Record as received" busyLabel="Recording…" errors={reply.errors}>
            <SelectField
              name="method"
              label="Received as"
              choices={[
                { value: "cheque", label: "Cheque" },
                { value: "cash", label: "Cash" },
              ]}
              defaultValue={reply.values?.method ?? "cheque"}
              error={reply.errors.method}
            />
            <TextField name="note" label="Note (optional)" hint="A cheque number, who took the cash…" defaultValue={reply.values?.note ?? ""} maxLength={500} />
          </SetupForm>
        </>
      )}
      <p>
        <Link to={cancelTo}>Cancel</Link>
      </p>
    </section>
  );
}

export function FinanceTransactions(props: { data: FinancePageData; csvHref: string; showForm: boolean; mayAct: boolean }) {
  const { filter, page, confirm } = props.data;
  const location = useLocation();
  const net = (page.sums.payment ?? 0) - (page.sums.refund ?? 0);
  return (
    <>
      <Form method="get" className="filter-bar" aria-label="Filter transactions">
        <label>
          Type
          <select name="type" defaultValue={filter.type}>
            <option value="all">All types</option>
            {TRANSACTION_TYPES.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status" defaultValue={filter.status}>
            <option value="all">Any status</option>
            <option value="pending">Pending</option>
            <option value="completed">Completed</option>
            <option value="void">Void</option>
          </select>
        </label>
        <label>
          From
          <input type="date" name="from" defaultValue={filter.from ?? ""} />
        </label>
        <label>
          To
          <input type="date" name="to" defaultValue={filter.to ?? ""} />
        </label>
        <label>
          Search
          <input type="search" name="q" defaultValue={filter.q} placeholder="Email, cart number, note" />
        </label>
        <button type="submit" className="secondary">
          Filter
        </button>
        <a href={props.csvHref} download>
          Download CSV
        </a>
      </Form>
      <p
        className="finance-sums"
        data-testid="finance-sums"
      >{`${page.total} ${page.total === 1 ? "transaction" : "transactions"}. Completed payments ${formatMoneyWithSymbol(page.sums.payment ?? 0)}, refunds ${formatMoneyWithSymbol(page.sums.refund ?? 0)}, net ${formatMoneyWithSymbol(net)}, system fees ${formatMoneyWithSymbol(page.sums.z4fee ?? 0)}.`}</p>
      {confirm && props.mayAct ? <ConfirmStep confirm={confirm} cancelTo={withParams(location, {})} /> : null}
      {page.rows.length === 0 ? (
        <p className="empty-state">No transactions match. Payments appear here as registrants pay.</p>
      ) : (
        <div className="table-scroll">
          <table className="finance-table">
            <caption className="visually-hidden">Transactions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Date (UTC)</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                {props.showForm ? <th scope="col">Form</th> : null}
                <th scope="col">Cart</th>
                <th scope="col">Method</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.rows.map((row) => (
                <tr key={row.id} data-testid={`tx-${row.id}`} className={row.isVoid ? "void" : undefined}>
                  <td>{dateText(row.completionTime ?? row.createdAt)}</td>
                  <td>{TYPE_LABELS[row.type] ?? row.type}</td>
                  <td>
                    {statusText(row)}
                    {row.refundStatus && row.refundStatus !== "none" ? <span className="badge">{REFUND_LABELS[row.refundStatus]}</span> : null}
                  </td>
                  {props.showForm ? <td>{row.registrationName ?? ""}</td> : null}
                  <td>{row.cartNumber !== null ? `No. ${row.cartNumber} ${row.cartEmail ?? ""}` : row.payer}</td>
                  <td>{METHOD_LABELS[row.method ?? ""] ?? ""}</td>
                  <td className="num">{`${row.type === "refund" ? "−" : ""}${formatMoneyWithSymbol(row.amount)}`}</td>
                  <td className="row-links">
                    {props.mayAct && row.type === "payment" && row.provider === "manual" && row.completionTime === null && !row.isVoid ? (
                      <Link to={withParams(location, { record: row.id })} aria-label={`Record payment from ${row.cartEmail ?? row.payer} as received`}>
                        Received…
                      </Link>
                    ) : null}
                    {props.mayAct && row.type === "payment" && row.cartNumber !== null && row.cartEmail && !row.isVoid ? (
                      <Link to={withParams(location, { resend: row.id })} aria-label={`Send the receipt of ${row.cartEmail} again`}>
                        Receipt…
                      </Link>
                    ) : null}
                    {props.mayAct && row.refundable > 0 ? (
                      <Link to={withParams(location, { refund: row.id })} aria-label={`Refund payment from ${row.cartEmail ?? row.payer}`}>
                        Refund…
                      </Link>
                    ) : null}
                    {props.mayAct &&
                    !row.isVoid &&
                    (row.completionTime === null || row.provider === "manual") &&
                    row.refundStatus !== "partial" &&
                    row.refundStatus !== "refunded" ? (
                      <Link
                        to={withParams(location, { void: row.id })}
                        className="danger-link"
                        aria-label={`Void ${TYPE_LABELS[row.type] ?? row.type} from ${row.cartEmail ?? row.payer}`}
                      >
                        Void…
                      </Link>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.pages > 1 ? (
        <nav aria-label="Pages of transactions" className="pagination">
          {page.page > 1 ? <Link to={withParams(location, { page: String(page.page - 1) })}>← Newer</Link> : null}
          <span>{`Page ${page.page} of ${page.pages}`}</span>
          {page.page < page.pages ? <Link to={withParams(location, { page: String(page.page + 1) })}>Older →</Link> : null}
        </nav>
      ) : null}
    </>
  );
}
