import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { formatMoneyWithSymbol } from "../../core/money/money";
import { capitalised } from "../../core/registration/people-labels";
import { openDb } from "../../schema/d1";
import { readCookie } from "../../workers/auth/cookies";
import { cartCookieName, openCart, openCartByReceipt } from "../../workers/services/carts";
import { receiptOfCart } from "../../workers/services/receipts";
import { getRegistration } from "../../workers/services/registration-forms";
import { RegistrationErrorBoundary } from "../components/registration-flow";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Receipt · ${data.name}` : "Receipt" }];

/**
 * A paid or registered cart's receipt: opened right after paying (the cart's cookie) or from the emailed
 * link (?receipt=), even after the form has closed. Nothing here changes the cart.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const db = openDb(context.env.DB);
  const registration = params.registrationId ? await getRegistration(db, context.tenant, params.registrationId).catch(() => null) : null;
  if (!registration) throw new Response("Not found", { status: 404 });
  const token = new URL(request.url).searchParams.get("receipt");
  const fromCookie = await openCart(db, registration, readCookie(request, cartCookieName(registration.id)));
  const cart = token ? await openCartByReceipt(db, registration, token) : fromCookie?.isComplete ? fromCookie : null;
  if (!cart) throw new Response("This link no longer opens a receipt. The newest email about this registration has a working link.", { status: 404 });
  return { name: registration.name, clubName: registration.clubName, registrationId: registration.id, receipt: await receiptOfCart(db, registration, cart) };
}

const TYPE_LABELS: Record<string, string> = { payment: "Payment", refund: "Refund" };
const METHOD_LABELS: Record<string, string> = { card: "card", cash: "cash", cheque: "cheque" };

export default function Receipt() {
  const { name, clubName, registrationId, receipt } = useLoaderData<typeof loader>();
  const settled = receipt.pending === 0;
  return (
    <main className="page registration-page receipt">
      <h1>{name}</h1>
      <p className="race-meta">{clubName}</p>
      <h2 data-testid="receipt-heading">{settled ? "Registration complete" : "Registration confirmed: payment due"}</h2>
      <p>{`Cart No. ${receipt.number}. ${receipt.email ? `A receipt was sent to ${receipt.email}.` : ""}`}</p>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">{`${capitalised(receipt.peopleLabels.plural)} registered`}</caption>
          <thead>
            <tr>
              <th scope="col">{capitalised(receipt.peopleLabels.singular)}</th>
              <th scope="col" className="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {receipt.people.map((person) => (
              <tr key={person.id}>
                <th scope="row">{person.name}</th>
                <td className="num">{formatMoneyWithSymbol(person.total)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td className="num" data-testid="receipt-total">
                {formatMoneyWithSymbol(receipt.total)}
              </td>
            </tr>
            <tr>
              <th scope="row">Paid</th>
              <td className="num" data-testid="receipt-paid">
                {formatMoneyWithSymbol(receipt.received)}
              </td>
            </tr>
            {receipt.refunded > 0 ? (
              <>
                <tr>
                  <th scope="row">Refunded</th>
                  <td className="num">{formatMoneyWithSymbol(receipt.refunded)}</td>
                </tr>
                <tr>
                  <th scope="row">Net paid</th>
                  <td className="num" data-testid="receipt-net">
                    {formatMoneyWithSymbol(receipt.netPaid)}
                  </td>
                </tr>
              </>
            ) : null}
            {receipt.pending > 0 ? (
              <tr>
                <th scope="row">To pay the club by cash or cheque</th>
                <td className="num" data-testid="receipt-due">
                  {formatMoneyWithSymbol(receipt.pending)}
                </td>
              </tr>
            ) : null}
          </tfoot>
        </table>
      </div>
      {receipt.transactions.length > 0 ? (
        <>
          <h3>Payments</h3>
          <ul className="plain-list">
            {receipt.transactions
              .filter((t) => !t.isVoid)
              .map((t) => (
                <li
                  key={t.id}
                >{`${TYPE_LABELS[t.type] ?? t.type} by ${t.completed ? (METHOD_LABELS[t.method ?? ""] ?? "other") : "cash or cheque"}: ${formatMoneyWithSymbol(t.amount)}${t.completed ? ` on ${new Date(t.at).toISOString().slice(0, 10)}` : " (waiting to be received)"}`}</li>
              ))}
          </ul>
        </>
      ) : null}
      <p>
        <Link to={`/register/${registrationId}`}>Register someone else</Link>
      </p>
    </main>
  );
}

export const ErrorBoundary = RegistrationErrorBoundary;
