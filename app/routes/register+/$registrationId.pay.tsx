import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { formatMoneyIn } from "../../../core/registration/receipt-lines";
import { cartNumberOf } from "../../../core/registration/cart-names";
import { priceOfCart } from "../../../workers/services/carts";
import { completeWithManualPayment, latestAttemptOfCart, startCardPayment } from "../../../workers/services/payments";
import { sendReceiptOfCart } from "../../../workers/services/receipts";
import { afterCartCompleted } from "../../../workers/jobs";
import { FlowHeader } from "../../components/registration-flow";
import { FLOW_WORDS } from "../../components/registration-words";
import { PriceTable } from "../../components/registration-price";
import { cartToPay, checkoutUrls, paymentChoicesOf } from "../../registration-payments.server";
import { cartNameOf, flowQuery, flowView, forgetCartCookie, requirePublicForm } from "../../registration-public.server";
import { ErrorPage, REGISTRATION_FLOW_ERRORS } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.form.name} · Payment` : "Payment" }];

/** The cart priced and checked, its email known: pay by card (Stripe Checkout), or register and pay the club by cash or cheque. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const form = await requirePublicForm(request, context, params.registrationId);
  if (!form.cart || form.people.length === 0) throw redirect(`/register/${form.registration.id}${flowQuery(form)}`);
  if (!form.cart.email) throw redirect(`/register/${form.registration.id}/cart${flowQuery(form)}`);
  const [price, choices, attempt] = await Promise.all([
    priceOfCart(form.db, form, form.cart, form.people),
    paymentChoicesOf(context, form),
    latestAttemptOfCart(form.db, form.cart.id),
  ]);
  return {
    form: { ...flowView(form), gstRate: form.registration.gstRate, isKiosk: form.isKiosk },
    cart: {
      number: cartNumberOf({ legacy_id: form.cart.legacyId, cart_number: form.cart.cartNumber, id: form.cart.id }),
      name: cartNameOf(form),
      email: form.cart.email,
      people: form.people.length,
    },
    price,
    choices: { card: choices.card, manual: choices.manual },
    // A declined card leaves the cart payable; say why the last try failed.
    failure: attempt?.status === "failed" ? attempt.failureMessage : null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await requirePublicForm(request, context, params.registrationId);
  const intent = String((await request.formData()).get("intent") ?? "");
  const back = `/register/${form.registration.id}`;
  if (intent === "next") {
    if (!form.isKiosk) throw new Response("Only a registration desk starts a new cart here", { status: 400 });
    return redirect(`${back}${flowQuery(form)}`, { headers: { "Set-Cookie": forgetCartCookie(form.registration.id) } });
  }
  if (!form.cart || form.people.length === 0) return redirect(`${back}${flowQuery(form)}`);
  const price = await priceOfCart(form.db, form, form.cart, form.people);
  const choices = await paymentChoicesOf(context, form);
  const pay = cartToPay({ ...form, cart: form.cart }, price);
  if (intent === "card" && choices.card && choices.gateway && price.total > 0) {
    const started = await startCardPayment(
      form.db,
      choices.gateway,
      choices.club,
      pay,
      checkoutUrls(context, form.registration.id, flowQuery(form)),
      context.now,
    );
    return started.ok ? redirect(started.url) : data({ error: started.error }, { status: 409 });
  }
  // Cash or cheque, or nothing to pay: the cart is registered now.
  if ((intent === "manual" && choices.manual) || (intent === "free" && price.total === 0)) {
    const done = await completeWithManualPayment(form.db, pay, context.now);
    if (!done.ok) return data({ error: done.error }, { status: 409 });
    afterCartCompleted(context.env, form.db, (p) => context.ctx.waitUntil(p), form.registration.id, form.cart.id);
    context.ctx.waitUntil(
      sendReceiptOfCart(context.env, form.db, form.cart.id, price.total > 0 ? "registered" : "paid").catch((error: unknown) =>
        console.error("Receipt failed", error),
      ),
    );
    return redirect(`${back}/receipt${flowQuery(form)}`);
  }
  throw new Response("That way to pay is not offered for this cart", { status: 400 });
}

export default function Pay() {
  const { form, cart, price, choices, failure } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const [search] = useSearchParams();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const submitting = navigation.state !== "idle" && navigation.formData !== undefined;
  const postTo = `/register/${form.id}/pay${form.query}`;
  const free = price.total === 0;
  const words = FLOW_WORDS[form.lang];
  return (
    <main className="page registration-page" lang={form.lang}>
      <FlowHeader form={form} step="pay" />
      <h2>{words.readyToPay}</h2>
      <p data-testid="ready-to-pay">{words.readyLine({ ...cart, email: cart.email ?? "" }, form.peopleLabels)}</p>
      <PriceTable price={price} gstRate={form.gstRate} lang={form.lang} />
      <p className="amount-due">
        {words.amountDue}
        <strong data-testid="amount-due">{formatMoneyIn(price.total, form.lang)}</strong>
      </p>
      {reply?.error ? (
        <p role="alert" className="error">
          {reply.error}
        </p>
      ) : null}
      {failure ? (
        <p role="alert" className="error">
          {words.cardFailed(failure)}
        </p>
      ) : null}
      {search.get("cancelled") === "1" && !failure ? <p className="hint">{words.cardCancelled}</p> : null}
      <div className="pay-choices">
        {free ? (
          <Form method="post" action={postTo}>
            <button type="submit" name="intent" value="free" disabled={submitting}>
              {busy("free") ? words.registering : words.complete}
            </button>
          </Form>
        ) : null}
        {!free && choices.card ? (
          <Form method="post" action={postTo}>
            <button type="submit" name="intent" value="card" disabled={submitting}>
              {busy("card") ? words.openingCheckout : words.payByCard(formatMoneyIn(price.total, form.lang))}
            </button>
            <p className="hint">{words.checkoutHint}</p>
          </Form>
        ) : null}
        {!free && choices.manual ? (
          <Form method="post" action={postTo}>
            <button type="submit" name="intent" value="manual" disabled={submitting} className={choices.card ? "secondary" : undefined}>
              {busy("manual") ? words.registering : words.payManually}
            </button>
            <p className="hint">{words.placeHeld(form.clubName)}</p>
          </Form>
        ) : null}
      </div>
      <p>
        <Link to={`/register/${form.id}/cart${form.query}`}>{words.backToCart}</Link>
      </p>
      {form.isKiosk ? (
        <Form method="post" action={postTo}>
          <button type="submit" name="intent" value="next" className="secondary">
            {words.nextRegistrant}
          </button>
        </Form>
      ) : null}
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...REGISTRATION_FLOW_ERRORS} />;
