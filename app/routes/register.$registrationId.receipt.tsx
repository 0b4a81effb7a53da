import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { capitalised } from "../../core/registration/people-labels";
import { formatDateIn, formatMoneyIn, RECEIPT_WORDS } from "../../core/registration/receipt-lines";
import { openDb } from "../../schema/d1";
import { readCookie } from "../../workers/auth/cookies";
import { cartCookieName, openCart, openCartByReceipt } from "../../workers/services/carts";
import { receiptLang, receiptOfCart } from "../../workers/services/receipts";
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
  // The registrant's language, or the one asked for on a bilingual form.
  const asked = new URL(request.url).searchParams.get("lang");
  const lang = registration.isBilingual && (asked === "fr" || asked === "en") ? asked : receiptLang(cart, registration);
  return {
    name: registration.name,
    clubName: registration.clubName,
    registrationId: registration.id,
    receipt: await receiptOfCart(db, registration, cart, lang),
  };
}

export default function Receipt() {
  const { name, clubName, registrationId, receipt } = useLoaderData<typeof loader>();
  const settled = receipt.pending === 0;
  const words = RECEIPT_WORDS[receipt.lang];
  const money = (cents: number) => formatMoneyIn(cents, receipt.lang);
  return (
    <main className="page registration-page receipt" lang={receipt.lang}>
      <h1>{name}</h1>
      <p className="race-meta">{clubName}</p>
      <h2 data-testid="receipt-heading">{settled ? words.complete : words.due}</h2>
      <p>{words.cartLine(receipt.number, receipt.email)}</p>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">{`${capitalised(receipt.peopleLabels.plural)} registered`}</caption>
          <thead>
            <tr>
              <th scope="col">{capitalised(receipt.peopleLabels.singular)}</th>
              <th scope="col" className="num">
                {words.amount}
              </th>
            </tr>
          </thead>
          <tbody>
            {receipt.people.map((person) => (
              <Fragment key={person.id}>
                <tr>
                  <th scope="row">{person.name}</th>
                  <td className="num">{money(person.total)}</td>
                </tr>
                {person.lines.map((line, i) => (
                  <tr key={i} className="receipt-item" data-testid="receipt-item">
                    <td>{line.label}</td>
                    <td className="num">{money(line.amount)}</td>
                  </tr>
                ))}
              </Fragment>
            ))}
            {receipt.cartLines.map((line, i) => (
              <tr key={`cart-${i}`} className="receipt-item" data-testid="receipt-item">
                <td>{line.label}</td>
                <td className="num">{money(line.amount)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{words.total}</th>
              <td className="num" data-testid="receipt-total">
                {money(receipt.total)}
              </td>
            </tr>
            <tr>
              <th scope="row">{words.paid}</th>
              <td className="num" data-testid="receipt-paid">
                {money(receipt.received)}
              </td>
            </tr>
            {receipt.refunded > 0 ? (
              <>
                <tr>
                  <th scope="row">{words.refunded}</th>
                  <td className="num">{money(receipt.refunded)}</td>
                </tr>
                <tr>
                  <th scope="row">{words.netPaid}</th>
                  <td className="num" data-testid="receipt-net">
                    {money(receipt.netPaid)}
                  </td>
                </tr>
              </>
            ) : null}
            {receipt.pending > 0 ? (
              <tr>
                <th scope="row">{words.toPay}</th>
                <td className="num" data-testid="receipt-due">
                  {money(receipt.pending)}
                </td>
              </tr>
            ) : null}
          </tfoot>
        </table>
      </div>
      {receipt.transactions.length > 0 ? (
        <>
          <h3>{words.payments}</h3>
          <ul className="plain-list">
            {receipt.transactions
              .filter((t) => !t.isVoid)
              .map((t) => (
                <li key={t.id}>
                  {words.transaction(
                    t.type === "refund" ? words.refund : words.payment,
                    t.completed ? (words.methods[t.method ?? ""] ?? words.methods.other!) : words.cashOrCheque,
                    money(t.amount),
                    t.completed ? formatDateIn(t.at, receipt.lang) : null,
                  )}
                </li>
              ))}
          </ul>
        </>
      ) : null}
      <p>
        <Link to={`/register/${registrationId}`}>{words.registerAnother}</Link>
      </p>
    </main>
  );
}

export const ErrorBoundary = RegistrationErrorBoundary;
