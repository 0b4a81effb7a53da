import { data, redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import * as z from "zod";
import { Fragment } from "react";
import { capitalised } from "../../../core/registration/people-labels";
import { formatDateIn, formatMoneyIn, RECEIPT_WORDS } from "../../../core/registration/receipt-lines";
import { tierAt } from "../../../core/registration/tiers";
import type { Db } from "../../../schema/d1";
import { afterCartCompleted } from "../../../workers/jobs";
import { stripeGateway } from "../../../workers/payments/stripe";
import { cancelPerson, cancelQuotes } from "../../../workers/services/cancellations";
import { claimRefundNotice } from "../../../workers/services/payment-ledger";
import { ageDateOf, peopleOf, type CartRow } from "../../../workers/services/carts";
import { changeableElements, changePerson, changesOffered } from "../../../workers/services/person-changes";
import { joinChangeWaitlist } from "../../../workers/services/change-offers";
import { wishOfEntry } from "../../../workers/services/change-waitlists";
import { CHANGE_WAITLIST_WORDS } from "../../../core/registration/change-waitlist";
import { settleChange } from "../../person-change-outcome.server";
import { CHANGE_MESSAGES } from "../../../core/registration/person-changes";
import { labelIn } from "../../../core/forms/bilingual";
import { receiptLang, receiptOfCart, sendReceiptOfCart } from "../../../workers/services/receipts";
import { listElements, type RegistrationRow } from "../../../workers/services/registration-forms";
import { offerFreedPlaces } from "../../../workers/services/waitlists";
import { ErrorPage, REGISTRATION_FLOW_ERRORS } from "../../components/error-page";
import { changeHref, PersonChangeForm } from "../../components/person-change-form";
import { rawFieldsOf, receiptCart } from "../../registration-public.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${RECEIPT_WORDS[data.receipt.lang].subjects.paid} · ${data.name}` : "Receipt" },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { db, registration, cart } = await receiptCart(request, context, params.registrationId);
  // The registrant's language, or the one asked for on a bilingual form.
  const asked = new URL(request.url).searchParams.get("lang");
  const lang = registration.isBilingual && (asked === "fr" || asked === "en") ? asked : receiptLang(cart, registration);
  const people = await peopleOf(db, cart.id);
  const quotes = await cancelQuotes(db, registration, cart, people, context.now);
  const offered = changesOffered(registration, context.now);
  const url = new URL(request.url);
  // ?change=<person>&kind=edit|transfer opens the change form of one paid person.
  const changing = people.find((p) => p.id === url.searchParams.get("change") && p.paidAt !== null && p.isComplete);
  const kind: "edit" | "transfer" = url.searchParams.get("kind") === "transfer" && offered.transfer ? "transfer" : "edit";
  const elements = changing && offered.edit ? await listElements(db, registration.id) : [];
  return {
    offered,
    change: changing
      ? {
          person: changing.id,
          kind,
          elements: changeableElements(elements, changing.values, kind),
          // A transfer starts blank: the details are the new person's.
          values: kind === "edit" ? changing.values : {},
          ageDate: ageDateOf(registration, context.now),
          tier: tierAt(context.now, { raise_price_1_time: registration.raisePrice1Time, raise_price_2_time: registration.raisePrice2Time }),
        }
      : null,
    changedNotice: url.searchParams.get("changed") === "1",
    changeFailed: url.searchParams.get("changefailed") === "1",
    transferFee: registration.transferFee ?? 0,
    name: labelIn(registration.name, lang),
    clubName: registration.clubName,
    registrationId: registration.id,
    receipt: await receiptOfCart(db, registration, cart, lang),
    // Only a cancellation the policy allows is offered; one request id per page shown, so a resend cancels once.
    cancels: Object.fromEntries(Object.entries(quotes).flatMap(([id, quote]) => (quote.ok ? [[id, quote.refund]] : []))),
    requestId: crypto.randomUUID(),
    // Set by the cancel action's redirect: what the cancellation gives back, to say so once.
    cancelledRefund: cancelledOf(new URL(request.url).searchParams.get("cancelled")),
  };
}

function cancelledOf(text: string | null): number | null {
  const cents = text === null ? NaN : Number(text);
  return Number.isInteger(cents) && cents >= 0 ? cents : null;
}

const cancelSchema = z.object({ intent: z.literal("cancel"), person: z.string().min(1).max(64), request_id: z.uuid() });
const changeSchema = z.object({
  intent: z.literal("change"),
  person: z.string().min(1).max(64),
  kind: z.enum(["edit", "transfer"]),
  request_id: z.uuid(),
  waitlist: z.literal("join").optional(),
});

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { db, registration, cart } = await receiptCart(request, context, params.registrationId);
  // A body that is no form is the sender's mistake: 400, never a 500.
  const formData = await request.formData().catch(() => {
    throw new Response("The form could not be read", { status: 400 });
  });
  if (formData.get("intent") === "change") return changeAction(context, db, registration, cart, request, formData);
  const posted = cancelSchema.safeParse(Object.fromEntries(formData));
  if (!posted.success) return data({ error: CHANGE_MESSAGES[receiptLang(cart, registration)].notUnderstood }, { status: 400 });
  const done = await cancelPerson(db, stripeGateway(context.env), registration, cart, posted.data.person, posted.data.request_id, context.now);
  if (!done.ok) return data({ error: done.error }, { status: 409 });
  if (done.created) {
    afterCartCompleted(context.env, db, (p) => context.ctx.waitUntil(p), registration.id, cart.id);
    // The cancelled person's places go to whoever waits for them.
    context.ctx.waitUntil(offerFreedPlaces(context.env, db, registration.id, context.now).catch((e: unknown) => console.error("Waitlist sweep failed", e)));
  }
  // One mail per cancellation: its refund's notice is claimed once, however many sends got this far.
  if (done.refundId ? await claimRefundNotice(db, done.refundId, context.now) : done.created)
    context.ctx.waitUntil(
      sendReceiptOfCart(context.env, db, cart.id, "cancelled", done.refund).catch((error: unknown) => console.error("Cancellation mail failed", error)),
    );
  const url = new URL(request.url);
  url.searchParams.set("cancelled", String(done.refund));
  return redirect(`${url.pathname}${url.search}`);
}

/** A change of details or a transfer: written once, then mailed and passed on to the race's racers; a full choice may wait. */
async function changeAction(context: AppLoadContext, db: Db, registration: RegistrationRow, cart: CartRow, request: Request, formData: FormData) {
  const posted = changeSchema.safeParse(Object.fromEntries([...formData].filter(([, v]) => typeof v === "string")));
  const lang = receiptLang(cart, registration);
  if (!posted.success) return data({ error: CHANGE_MESSAGES[lang].notUnderstood, fieldErrors: {} }, { status: 400 });
  const { person, kind, request_id } = posted.data;
  const elements = await listElements(db, registration.id);
  const done = await changePerson(db, registration, elements, cart, person, rawFieldsOf(formData), kind, request_id, lang, context.now);
  if (done.ok === false) {
    const full = done.full && registration.waitlistOfferHours !== null && cart.email ? done.full : null;
    const paid = full ? (await peopleOf(db, cart.id)).find((p) => p.id === person) : undefined;
    if (full && paid && posted.data.waitlist === "join") {
      // The change waits for a place (decision 0066): the request id makes a double click one entry.
      const joined = await joinChangeWaitlist(context.env, db, registration, elements, cart, paid, full, request_id, lang, context.now);
      if (joined.ok) return data({ error: null, waitlisted: joined.message, fieldErrors: {} });
    }
    const waitlist = full && paid ? CHANGE_WAITLIST_WORDS[lang].full(wishOfEntry(elements, full, lang)) : null;
    return data({ error: done.errors.form ?? null, fieldErrors: done.errors, waitlist }, { status: done.status });
  }
  const url = new URL(request.url);
  url.searchParams.delete("change");
  url.searchParams.delete("kind");
  url.searchParams.set("changed", "1");
  const back = new URL(request.url);
  back.searchParams.delete("changed");
  return settleChange(context, db, registration, elements, cart, done, lang, { done: `${url.pathname}${url.search}`, back: back.toString() });
}

/** The receipt link's token and language, for the PDF of the same receipt. */
function receiptSearch(search: URLSearchParams): string {
  const keep = new URLSearchParams();
  for (const name of ["receipt", "lang"]) {
    const value = search.get(name);
    if (value) keep.set(name, value);
  }
  const text = keep.toString();
  return text ? `?${text}` : "";
}

export default function Receipt() {
  const { name, clubName, registrationId, receipt, cancels, requestId, cancelledRefund, offered, change, changedNotice, changeFailed, transferFee } =
    useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const [search] = useSearchParams();

  const settled = receipt.pending === 0;
  const words = RECEIPT_WORDS[receipt.lang];
  const money = (cents: number | null) => (cents === null ? "" : formatMoneyIn(cents, receipt.lang));
  return (
    <main className="page registration-page receipt" lang={receipt.lang}>
      <h1>{name}</h1>
      <p className="race-meta">{clubName}</p>
      <h2 data-testid="receipt-heading">{settled ? words.complete : words.due}</h2>
      <p>{words.cartLine(receipt.number, receipt.email)}</p>
      {reply?.error ? (
        <p role="alert" className="form-error">
          {reply.error}
        </p>
      ) : null}
      {reply && "waitlisted" in reply && reply.waitlisted ? (
        <p role="status" className="notice" data-testid="change-waitlisted">
          {reply.waitlisted}
        </p>
      ) : null}
      {changeFailed ? (
        <p role="alert" className="form-error">
          {`${CHANGE_MESSAGES[receipt.lang].stale} ${receipt.lang === "fr" ? "Votre paiement vous a été remboursé en entier." : "Your payment has been refunded in full."}`}
        </p>
      ) : changedNotice ? (
        <p role="status" className="notice" data-testid="changed-notice">
          {words.changedNotice}
        </p>
      ) : null}
      {change && !(reply && "waitlisted" in reply) ? (
        <PersonChangeForm
          change={change}
          lang={receipt.lang}
          requestId={requestId}
          busy={busy}
          fieldErrors={reply && "fieldErrors" in reply ? reply.fieldErrors : {}}
          waitlist={reply && "waitlist" in reply ? reply.waitlist : null}
          personName={receipt.people.find((p) => p.id === change.person)?.name ?? ""}
          feeQuote={change.kind === "transfer" && transferFee > 0 ? words.transferFeeQuote(money(transferFee)) : null}
        />
      ) : null}
      {cancelledRefund !== null ? (
        <p role="status" className="notice" data-testid="cancelled-notice">
          {words.cancelled(cancelledRefund > 0 ? money(cancelledRefund) : null)}
        </p>
      ) : null}
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">{words.registered(receipt.peopleLabels.plural)}</caption>
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
                  <th scope="row">
                    {person.name}
                    {person.cancelled ? <span className="badge">{` (${words.cancelledPerson})`}</span> : null}
                    {!person.cancelled && offered.edit ? (
                      <span className="row-links">
                        <Link to={changeHref(search, person.id, "edit")}>{words.editPerson}</Link>
                        {offered.transfer ? <Link to={changeHref(search, person.id, "transfer")}>{words.transferPerson}</Link> : null}
                      </span>
                    ) : null}
                    {cancels[person.id] !== undefined ? (
                      <details className="cancel-entry">
                        <summary>{words.cancel}</summary>
                        <Form method="post">
                          <p>{words.cancelQuote(money(cancels[person.id]!))}</p>
                          <input type="hidden" name="intent" value="cancel" />
                          <input type="hidden" name="person" value={person.id} />
                          <input type="hidden" name="request_id" value={requestId} />
                          <button type="submit" className="danger" disabled={busy}>
                            {words.cancelConfirm}
                          </button>
                        </Form>
                      </details>
                    ) : null}
                  </th>
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
      <p className="row-links">
        <a href={`/register/${registrationId}/receipt.pdf${receiptSearch(search)}`} data-testid="receipt-pdf">
          {words.downloadPdf}
        </a>
        <Link to={`/register/${registrationId}`}>{words.registerAnother}</Link>
      </p>
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...REGISTRATION_FLOW_ERRORS} />;
