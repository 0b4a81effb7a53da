import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { splitEmails } from "../../../core/forms/email";
import { FORM_MESSAGES } from "../../../core/forms/messages";
import { formatDateTimeIn, formatMoneyIn } from "../../../core/registration/receipt-lines";
import { WAITLIST_WORDS } from "../../../core/registration/waitlist";
import { offerOfCart } from "../../../workers/services/waitlists";
import { cartNumberOf } from "../../../core/registration/cart-names";
import { REGISTRATION_MESSAGES } from "../../../core/registration/messages";
import { sendMail } from "../../../workers/mail/mailer";
import { ourAuthMessages } from "../../../core/auth/messages";
import { clientKeyOf } from "../../../workers/auth/failures";
import { takeVisitorMail } from "../../../workers/auth/throttle";
import { originOf } from "../../../workers/auth/hosts";
import { PAYMENT_MESSAGES } from "../../../workers/services/payments";
import { priceOfCart, removePerson, renewCartToken, setCartCodes, setCartEmail } from "../../../workers/services/carts";
import { ConfirmForm } from "../../components/form-kit";
import { FlowHeader } from "../../components/registration-flow";
import { FLOW_WORDS } from "../../components/registration-words";
import { PriceTable } from "../../components/registration-price";
import { readyForChange } from "../../registration-payments.server";
import { answersOf, cartCookie, cartNameOf, flowQuery, flowView, personName, requirePublicForm, type PublicForm } from "../../registration-public.server";
import { ErrorPage, REGISTRATION_FLOW_ERRORS } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.form.name} · Your cart` : "Your cart" }];

function emailOfCart(form: PublicForm): string {
  if (form.cart?.email) return form.cart.email;
  // Prefill with the first email a person gave, so most registrants only confirm it.
  for (const person of form.people) {
    for (const element of form.elements.filter((e) => e.type === "email")) {
      const value = person.values[element.id]?.v as { addresses?: string } | undefined;
      if (value?.addresses) return value.addresses.split(",")[0]!.trim();
    }
  }
  return "";
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const form = await requirePublicForm(request, context, params.registrationId);
  if (!form.cart || form.people.length === 0) throw redirect(`/register/${form.registration.id}${flowQuery(form)}`);
  const price = await priceOfCart(form.db, form, form.cart, form.people);
  const offer = await offerOfCart(form.db, form.cart.id);
  return {
    // A cart made for someone on the waitlist: until when their place is held.
    heldUntil: offer?.state === "offered" && (offer.offerExpiresAt ?? 0) > form.now ? formatDateTimeIn(offer.offerExpiresAt!, form.lang) : null,
    form: { ...flowView(form), gstRate: form.registration.gstRate },
    cart: {
      number: cartNumberOf({ legacy_id: form.cart.legacyId, cart_number: form.cart.cartNumber, id: form.cart.id }),
      name: cartNameOf(form),
      email: emailOfCart(form),
      codes: form.cart.discountCodes,
    },
    hasDiscounts: form.elements.some((e) => e.type === "discount"),
    people: form.people.map((p, i) => ({
      id: p.id,
      name: personName(form, p.values, i),
      answers: answersOf(form.elements, p.values, form.lang),
      total: price.individualTotals[p.id] ?? 0,
    })),
    price,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await requirePublicForm(request, context, params.registrationId);
  const back = `/register/${form.registration.id}`;
  if (!form.cart) throw redirect(`${back}${flowQuery(form)}`);
  const posted = await request.formData();
  const intent = String(posted.get("intent") ?? "");
  const now = form.now;
  if ((intent === "remove-person" || intent === "apply-codes") && !(await readyForChange(context, form))) {
    return data({ intent, errors: { form: PAYMENT_MESSAGES.beingPaid } }, { status: 409 });
  }
  if (intent === "remove-person") {
    await removePerson(form.db, form.cart, String(posted.get("person") ?? ""), now);
    return redirect(`${back}/cart${flowQuery(form)}`);
  }
  if (intent === "apply-codes") {
    const result = await setCartCodes(form.db, form, form.cart, String(posted.get("codes") ?? ""), now);
    return result.ok ? redirect(`${back}/cart${flowQuery(form)}`) : data({ intent, errors: { codes: result.error } }, { status: 400 });
  }
  if (intent === "continue" || intent === "send-link") {
    const email = splitEmails(String(posted.get("email") ?? ""))?.[0];
    if (!email) return data({ intent, errors: { email: FORM_MESSAGES.invalidEmail } }, { status: 400 });
    await setCartEmail(form.db, form.cart, email, now, form.lang);
    if (intent === "continue") {
      if (form.people.length === 0) return data({ intent, errors: { form: REGISTRATION_MESSAGES.noPeople } }, { status: 400 });
      return redirect(`${back}/pay${flowQuery(form)}`);
    }
    const allowed = await takeVisitorMail(form.db, clientKeyOf(request), email, now);
    if (!allowed.ok) return data({ intent, errors: { form: ourAuthMessages.tooManyRequests } }, { status: 429 });
    const token = await renewCartToken(form.db, form.cart);
    const link = `${originOf(context.env, context.tenant.hostname)}${back}/resume?cart=${encodeURIComponent(token)}`;
    await sendMail(context.env, form.db, {
      to: email,
      subject: `Finish your registration: ${form.registration.name}`,
      text: `You started registering for ${form.registration.name} (${form.registration.clubName}).\n\nOpen your cart to finish:\n${link}\n\nThe link opens this cart only; anyone with it can change the cart, so keep it to yourself.`,
    });
    // The new token replaces the old one, so this browser takes it too; the page then says where it went.
    const joiner = flowQuery(form) ? "&" : "?";
    return redirect(`${back}/cart${flowQuery(form)}${joiner}sent=${encodeURIComponent(email)}`, {
      headers: { "Set-Cookie": cartCookie(form.registration.id, token) },
    });
  }
  throw new Response("Unknown action", { status: 400 });
}

export default function CartReview() {
  const { form, cart, hasDiscounts, people, price, heldUntil } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const [search] = useSearchParams();
  const removing = search.get("remove");
  const errors: Record<string, string> = reply?.errors ?? {};
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const removingPerson = people.find((p) => p.id === removing);
  const here = `/register/${form.id}/cart${form.query}`;
  const joiner = form.query ? "&" : "?";
  const words = FLOW_WORDS[form.lang];
  return (
    <main className="page registration-page" lang={form.lang}>
      <FlowHeader form={form} step="cart" />
      {heldUntil ? (
        <p className="notice" role="status" data-testid="place-held">
          {WAITLIST_WORDS[form.lang].held(heldUntil)}
        </p>
      ) : null}
      <h2>
        {words.yourCart} <span className="race-meta">{words.cartNumber(cart.number)}</span>
      </h2>
      {errors.form ? (
        <p className="form-error" role="alert">
          {errors.form}
        </p>
      ) : null}
      {removingPerson ? (
        <ConfirmForm
          title={words.removeTitle(removingPerson.name)}
          intent="remove-person"
          hidden={{ person: removingPerson.id }}
          label={words.remove}
          pendingLabel={words.removing}
          pending={busy("remove-person")}
          cancelTo={here}
          danger
          action={here}
        >
          <p>{words.removeBody}</p>
        </ConfirmForm>
      ) : null}
      <ul className="cart-people">
        {people.map((person) => (
          <li key={person.id} className="race-card" data-testid="cart-person">
            <div className="cart-person-head">
              <strong>{person.name}</strong> <span className="money">{formatMoneyIn(person.total, form.lang)}</span>
            </div>
            <dl className="answers">
              {person.answers.map((a, i) => (
                <div key={i}>
                  <dt>{a.caption}</dt>
                  <dd>{a.text}</dd>
                </div>
              ))}
            </dl>
            <Link to={`/register/${form.id}${form.query}${joiner}person=${person.id}`}>{words.editLink}</Link>{" "}
            <Link to={`${here}${joiner}remove=${person.id}`} className="danger-link">
              {words.remove}
            </Link>
          </li>
        ))}
      </ul>
      <p>
        <Link to={`/register/${form.id}${form.query}`} className="button secondary">
          {words.addAnother(form.peopleLabels)}
        </Link>
      </p>
      {hasDiscounts ? (
        <Form method="post" className="setup-form" action={here}>
          <input type="hidden" name="intent" value="apply-codes" />
          <label htmlFor="codes">{words.discountCodes}</label>
          <span className="hint" id="codes-hint">
            {words.discountHint}
          </span>
          <div className="search-row">
            <input
              id="codes"
              name="codes"
              defaultValue={cart.codes}
              aria-describedby={errors.codes ? "codes-hint codes-error" : "codes-hint"}
              aria-invalid={errors.codes ? true : undefined}
              autoCapitalize="characters"
            />
            <button type="submit" disabled={busy("apply-codes")}>
              {busy("apply-codes") ? words.applying : words.apply}
            </button>
          </div>
          {errors.codes ? (
            <span id="codes-error" className="form-error">
              {errors.codes}
            </span>
          ) : null}
        </Form>
      ) : null}
      <h3>{words.total}</h3>
      <PriceTable price={price} gstRate={form.gstRate} lang={form.lang} />
      <Form method="post" className="setup-form" action={here}>
        <label htmlFor="email">{words.receiptEmail}</label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={cart.email}
          required
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? "email-error" : undefined}
        />
        {errors.email ? (
          <span id="email-error" className="form-error">
            {errors.email}
          </span>
        ) : null}
        {search.get("sent") ? (
          <p className="form-notice" role="status">
            {words.linkSent(search.get("sent") ?? "")}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" name="intent" value="continue" disabled={busy("continue")}>
            {busy("continue") ? words.oneMoment : words.continueToPay}
          </button>
          <button type="submit" name="intent" value="send-link" className="secondary" disabled={busy("send-link")}>
            {busy("send-link") ? words.sending : words.sendLink}
          </button>
        </div>
      </Form>
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...REGISTRATION_FLOW_ERRORS} />;
