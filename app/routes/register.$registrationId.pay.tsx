import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { formatMoneyWithSymbol } from "../../core/money/money";
import { cartNumberOf } from "../../core/registration/cart-names";
import { priceOfCart } from "../../workers/services/carts";
import { FlowHeader, RegistrationErrorBoundary } from "../components/registration-flow";
import { PriceTable } from "../components/registration-price";
import { cartNameOf, flowQuery, forgetCartCookie, requirePublicForm } from "../registration-public.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.form.name} · Payment` : "Payment" }];

/**
 * The "ready to pay" step: the cart priced and checked, its email known. Taking the payment (Stripe, or
 * cash and cheque recorded by the club) is the payments issue; until then this page says what is due.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const form = await requirePublicForm(request, context, params.registrationId);
  if (!form.cart || form.people.length === 0) throw redirect(`/register/${form.registration.id}${flowQuery(form)}`);
  if (!form.cart.email) throw redirect(`/register/${form.registration.id}/cart${flowQuery(form)}`);
  const price = await priceOfCart(form.db, form, form.cart, form.people);
  return {
    form: { id: form.registration.id, name: form.registration.name, clubName: form.registration.clubName, status: form.status, mode: form.mode, isBilingual: form.registration.isBilingual, lang: form.lang, query: flowQuery(form), gstRate: form.registration.gstRate, isKiosk: form.isKiosk },
    cart: { number: cartNumberOf({ legacy_id: form.cart.legacyId, cart_number: form.cart.cartNumber, id: form.cart.id }), name: cartNameOf(form), email: form.cart.email, people: form.people.length },
    price,
  };
}

/** Kiosk mode: the desk hands the device to the next registrant with an empty cart; this cart stays saved. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await requirePublicForm(request, context, params.registrationId);
  if (!form.isKiosk) throw new Response("Only a registration desk starts a new cart here", { status: 400 });
  return redirect(`/register/${form.registration.id}${flowQuery(form)}`, { headers: { "Set-Cookie": forgetCartCookie(form.registration.id) } });
}

export default function ReadyToPay() {
  const { form, cart, price } = useLoaderData<typeof loader>();
  return (
    <main className="page registration-page">
      <FlowHeader name={form.name} clubName={form.clubName} status={form.status} mode={form.mode} isBilingual={form.isBilingual} lang={form.lang} step="pay" />
      <h2>Ready to pay</h2>
      <p data-testid="ready-to-pay">
        Cart No. {cart.number}: {cart.name} ({cart.people} {cart.people === 1 ? "person" : "people"}). Receipt to {cart.email}.
      </p>
      <PriceTable price={price} taxLabel={`Tax (${form.gstRate}%)`} />
      <p className="amount-due">
        Amount due: <strong data-testid="amount-due">{formatMoneyWithSymbol(price.total)}</strong>
      </p>
      <p className="hint">Online payment is being set up for this form. Your cart is saved: the club can take your payment, or you can come back with the link we emailed you.</p>
      <p>
        <Link to={`/register/${form.id}/cart${form.query}`}>Back to the cart</Link>
      </p>
      {form.isKiosk ? (
        <Form method="post" action={`/register/${form.id}/pay${form.query}`}>
          <button type="submit">Next registrant</button>
        </Form>
      ) : null}
    </main>
  );
}

export const ErrorBoundary = RegistrationErrorBoundary;
