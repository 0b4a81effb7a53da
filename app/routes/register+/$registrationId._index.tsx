import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useMemo, useRef } from "react";
import { isAccessible, isRequired } from "../../../core/forms/conditions";
import { priceAt } from "../../../core/forms/field-type";
import type { StoredValue } from "../../../core/forms/model";
import { formatMoneyIn } from "../../../core/registration/receipt-lines";
import { personChooser } from "../../../core/registration/person";
import { tierAt } from "../../../core/registration/tiers";
import { PAYMENT_MESSAGES } from "../../../workers/services/payments";
import { onlyFullPoolErrors, WAITLIST_WORDS } from "../../../core/registration/waitlist";
import { ourAuthMessages } from "../../../core/auth/messages";
import { clientKeyOf } from "../../../workers/auth/failures";
import { takeVisitorMail } from "../../../workers/auth/throttle";
import { hasActiveWaitlist, joinWaitlist, offerFreedPlaces, wishOfPools } from "../../../workers/services/waitlists";
import {
  ageDateOf,
  clubTakesCards,
  createCart,
  discountUsesOf,
  newSubmissionKey,
  personElements,
  savePerson,
  SUBMISSION_KEY,
} from "../../../workers/services/carts";
import { RegistrationField } from "../../components/registration-fields";
import { FlowHeader } from "../../components/registration-flow";
import { FLOW_WORDS } from "../../components/registration-words";
import { PriceTable } from "../../components/registration-price";
import { computeLiveForm, liveFromValues, useLiveForm, type LiveFormInput } from "../../hooks/use-live-form";
import { readyForChange } from "../../registration-payments.server";
import { cartCookie, flowQuery, flowView, personName, rawFieldsOf, requirePublicForm } from "../../registration-public.server";
import { storeUploads } from "../../registration-uploads.server";
import { ErrorPage, REGISTRATION_FLOW_ERRORS } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.form.name} · Register` : "Register" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const form = await requirePublicForm(request, context, params.registrationId);
  // Places held for lapsed payments or offers go to the next person waiting; the page does not wait for it.
  if (form.registration.waitlistOfferHours !== null && (await hasActiveWaitlist(form.db, form.registration.id)))
    context.ctx.waitUntil(
      offerFreedPlaces(context.env, form.db, form.registration.id, form.now).catch((e: unknown) => console.error("Waitlist sweep failed", e)),
    );
  const editing = new URL(request.url).searchParams.get("person");
  const person = editing ? form.people.find((p) => p.id === editing) : undefined;
  if (editing && !person) throw redirect(`/register/${form.registration.id}/cart${flowQuery(form)}`);
  const elements = personElements(form.elements).filter((e) => isAccessible(e, form));
  const tier = tierAt(form.now, { raise_price_1_time: form.registration.raisePrice1Time, raise_price_2_time: form.registration.raisePrice2Time });
  const live: LiveFormInput = {
    elements,
    tier,
    gstRatePercent: form.registration.gstRate,
    clubTakesCards: await clubTakesCards(form.db, form.registration.clubId),
    cartValues: form.cart?.values ?? {},
    discountUses: form.cart
      ? await discountUsesOf(form.db, form.registration.id, form.cart.discountCodes.split(" ").filter(Boolean), form.cart.id, form.now)
      : {},
    others: form.people
      .filter((p) => p.id !== person?.id)
      .map((p) => ({ id: p.id, isRemoved: false, isComplete: p.isComplete, isNew: p.paidAt === null, values: p.values })),
    personId: person?.id ?? "new-person",
    isNew: person ? person.paidAt === null : true,
    isAdmin: form.isAdmin,
    isKiosk: form.isKiosk,
  };
  return {
    form: flowView(form),
    person: person ? { id: person.id, index: form.people.indexOf(person), values: person.values } : null,
    people: form.people.map((p, i) => ({ id: p.id, name: personName(form, p.values, i) })),
    ageDate: ageDateOf(form.registration, form.now),
    live,
    // One key per form shown: sending it twice adds the person once.
    submission: person ? null : newSubmissionKey(),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await requirePublicForm(request, context, params.registrationId);
  const formData = await request.formData();
  if (formData.get("intent") !== "save-person") throw new Response("Unknown action", { status: 400 });
  const personId = typeof formData.get("person") === "string" && formData.get("person") !== "" ? String(formData.get("person")) : null;
  const raw = rawFieldsOf(formData);
  if (!(await readyForChange(context, form))) return data({ errors: { form: PAYMENT_MESSAGES.beingPaid }, posted: raw }, { status: 409 });
  const uploads = await storeUploads(context.env.UPLOADS, form, formData, form.people.find((p) => p.id === personId)?.values);
  if (!uploads.ok) return data({ errors: uploads.errors, posted: raw }, { status: 400 });
  Object.assign(raw, uploads.keys);
  const key = String(formData.get("submission") ?? "");
  const submission = SUBMISSION_KEY.test(key) ? key : null;
  // The waitlist button sends the same form: the person's answers are what they will be offered a place with.
  if (formData.get("waitlist") === "join" && !personId) {
    if (!submission) throw new Response("This form is missing its key. Reload the page and try again.", { status: 400 });
    const allowed = await takeVisitorMail(form.db, clientKeyOf(request), String(formData.get("waitlist_email") ?? ""), form.now);
    if (!allowed.ok) return data({ errors: { form: ourAuthMessages.tooManyRequests }, posted: raw, waitlist: null }, { status: 429 });
    const joined = await joinWaitlist(context.env, form.db, form, raw, String(formData.get("waitlist_email") ?? ""), submission);
    if (joined.ok === false) return data({ errors: joined.errors, posted: raw, waitlist: joined.wish }, { status: 400 });
    if (joined.ok === true) {
      // Someone may have left in the meantime: the sweep offers a free place at once.
      context.ctx.waitUntil(
        offerFreedPlaces(context.env, form.db, form.registration.id, form.now).catch((e: unknown) => console.error("Waitlist sweep failed", e)),
      );
      return data({ joined: WAITLIST_WORDS[form.lang].joined(joined.position, joined.wish, joined.entry.email) });
    }
    // Nothing is full any more: the person goes into the cart like any other.
  }
  let newToken: string | null = null;
  const saved = await savePerson(
    form.db,
    form,
    form.cart,
    personId,
    raw,
    async () => {
      const made = await createCart(
        form.db,
        form.registration,
        form.isKiosk ? "kiosk" : form.isAdmin ? "admin" : "web",
        form.now,
        form.cart ? null : submission,
        form.lang,
      );
      newToken = made.token;
      return made.cart;
    },
    submission,
  );
  if (!saved.ok) {
    const waitlist = !personId && form.registration.waitlistOfferHours !== null && onlyFullPoolErrors(saved.errors, saved.fullPools);
    return data({ errors: saved.errors, posted: raw, waitlist: waitlist ? wishOfPools(form.elements, saved.fullPools, form.lang) : null }, { status: 400 });
  }
  const headers = new Headers();
  if (newToken) headers.append("Set-Cookie", cartCookie(form.registration.id, newToken));
  return redirect(`/register/${form.registration.id}/cart${flowQuery(form)}`, { headers });
}

// Stable empties, so the first render's price is computed once.
const NOTHING_POSTED: Record<string, string | string[]> = {};
const NOTHING_SAVED: Record<string, StoredValue> = {};

export default function RegisterPerson() {
  const { form, person, people, ageDate, live, submission } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const formRef = useRef<HTMLFormElement>(null);
  const refused = reply && "errors" in reply ? reply : null;
  const errors: Record<string, string> = refused?.errors ?? {};
  const posted: Record<string, string | string[]> = refused?.posted ?? NOTHING_POSTED;
  const wish = refused && "waitlist" in refused && typeof refused.waitlist === "string" ? refused.waitlist : null;
  const joined = reply && "joined" in reply ? reply.joined : null;
  const saved: Record<string, StoredValue> = person?.values ?? NOTHING_SAVED;
  const initial = useMemo(() => (Object.keys(posted).length > 0 ? computeLiveForm(live, posted) : liveFromValues(live, saved)), [live, posted, saved]);
  const current = useLiveForm(formRef, live, initial);
  const chooser = personChooser(live.elements, saved, ageDate, live.isAdmin);
  const labels = form.peopleLabels;
  const words = FLOW_WORDS[form.lang];
  const waitWords = WAITLIST_WORDS[form.lang];
  const title = person
    ? words.edit(people[person.index]?.name ?? labels.singular)
    : people.length === 0
      ? words.whoIsRegistering
      : words.numbered(labels, people.length + 1);
  return (
    <main className="page registration-page" lang={form.lang}>
      <FlowHeader form={form} step="person" />
      <h2>{title}</h2>
      {joined ? (
        <p className="notice" role="status" data-testid="waitlist-joined">
          {joined}
        </p>
      ) : null}
      {errors.form ? (
        <p className="form-error" role="alert">
          {errors.form}
        </p>
      ) : wish ? (
        <p className="form-error" role="alert">
          {waitWords.full(wish)}
        </p>
      ) : Object.keys(errors).length > 0 ? (
        <p className="form-error" role="alert">
          {words.correctFields}
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" ref={formRef} className="registration-form" noValidate>
        <input type="hidden" name="intent" value="save-person" />
        {person ? <input type="hidden" name="person" value={person.id} /> : null}
        {submission ? <input type="hidden" name="submission" value={submission} /> : null}
        {live.elements.map((element) => (
          <div key={element.id} hidden={!current.shown.has(element.id)} data-element={element.id}>
            <RegistrationField
              element={element}
              lang={form.lang}
              value={saved[element.id]}
              posted={posted[element.id]}
              error={errors[element.id]}
              required={isRequired(element, { isAdmin: live.isAdmin })}
              chooser={chooser}
              priceOf={(item) => priceAt(item, live.tier)}
            />
          </div>
        ))}
        <div className="live-price" aria-live="polite" data-testid="person-total">
          {words.personPrice(labels)}
          <strong>{formatMoneyIn(current.personTotal, form.lang)}</strong> · {words.cartTotal}
          <strong data-testid="cart-total">{formatMoneyIn(current.price.total, form.lang)}</strong>
        </div>
        <details className="price-details">
          <summary>{words.priceDetails}</summary>
          <PriceTable price={current.price} gstRate={null} lang={form.lang} live />
        </details>
        <div className="actions">
          <button type="submit" disabled={busy}>
            {busy ? words.saving : person ? words.saveChanges : words.addToCart}
          </button>
          {people.length > 0 ? <Link to={`/register/${form.id}/cart${form.query}`}>{words.backToCart}</Link> : null}
        </div>
        {wish ? (
          <fieldset className="waitlist-box" data-testid="waitlist-box">
            <legend>{waitWords.join}</legend>
            <p>{waitWords.full(wish)}</p>
            <label htmlFor="waitlist_email">{waitWords.email}</label>
            <input
              id="waitlist_email"
              name="waitlist_email"
              type="email"
              autoComplete="email"
              maxLength={254}
              defaultValue={typeof posted.waitlist_email === "string" ? posted.waitlist_email : ""}
              aria-invalid={errors.waitlist_email ? true : undefined}
              aria-describedby={errors.waitlist_email ? "waitlist_email-error" : undefined}
            />
            {errors.waitlist_email ? (
              <p className="form-error" id="waitlist_email-error">
                {errors.waitlist_email}
              </p>
            ) : null}
            <button type="submit" name="waitlist" value="join" disabled={busy}>
              {waitWords.join}
            </button>
          </fieldset>
        ) : null}
      </Form>
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...REGISTRATION_FLOW_ERRORS} />;
