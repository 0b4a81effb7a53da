import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as z from "zod";
import { CHANGE_WAITLIST_WORDS } from "../../../core/registration/change-waitlist";
import { CHANGE_MESSAGES } from "../../../core/registration/person-changes";
import { formatDateTimeIn } from "../../../core/registration/receipt-lines";
import { labelIn } from "../../../core/forms/bilingual";
import { WAITLIST_WORDS } from "../../../core/registration/waitlist";
import { openDb } from "../../../schema/d1";
import {
  acceptChangeOffer,
  changeOfferOf,
  markOfferAccepted,
  offerStanding,
  personOfOffer,
  quoteOffer,
  type OfferQuote,
} from "../../../workers/services/change-offers";
import { differenceLines, OFFER_QUOTE_WORDS } from "../../../core/registration/change-offer-quote";
import { wishOfEntry } from "../../../workers/services/change-waitlists";
import { getRegistration, listElements } from "../../../workers/services/registration-forms";
import { ErrorPage, REGISTRATION_FLOW_ERRORS } from "../../components/error-page";
import { readPostedForm } from "../../forms/posted-form.server";
import { settleChange } from "../../person-change-outcome.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.name} · ${data.lang === "fr" ? "Liste d'attente" : "Waitlist"}` : "Waitlist" },
];

/**
 * A change's waitlist offer (decision 0066), from its signed mail link: while the offer stands, the place held
 * for the paid person and a button that makes the change (paid or refunded as any change is); afterwards, what
 * became of it. The entry's id is the change's one-time id, so accepting twice makes it once.
 */
async function offerContext(request: Request, context: LoaderFunctionArgs["context"], registrationId: string | undefined, token: string | null) {
  const db = openDb(context.env.DB);
  const registration = registrationId ? await getRegistration(db, context.tenant, registrationId).catch(() => null) : null;
  if (!registration) throw new Response("Not found", { status: 404 });
  const lang = registration.isBilingual && new URL(request.url).searchParams.get("lang") === "fr" ? ("fr" as const) : ("en" as const);
  const entry = await changeOfferOf(context.env, db, registration.id, token);
  const found = entry ? await personOfOffer(db, entry) : null;
  return { db, registration, lang, entry, found };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("offer");
  const { db, registration, lang, entry, found } = await offerContext(request, context, params.registrationId, token);
  type Offer = { prompt: string; token: string; quote: OfferQuote };
  const page = (message: string, status: number, offer: Offer | null = null) =>
    data({ name: labelIn(registration.name, lang), lang, message, offer }, { status });
  if (!entry || !found || !token) return page(WAITLIST_WORDS[lang].offerGone, 410);
  const standing = await offerStanding(db, entry, lang, context.now);
  if (!standing.ok) return page(standing.message, standing.status);
  const elements = await listElements(db, registration.id);
  const prompt = CHANGE_WAITLIST_WORDS[lang].prompt(entry.name, wishOfEntry(elements, entry, lang), formatDateTimeIn(standing.until, lang));
  // The difference, priced as Accept will price it (decision 0072).
  const quote = await quoteOffer(context.env, { db, registration, elements, entry, found, lang, now: context.now });
  return page("", 200, { prompt, token, quote });
}

const acceptSchema = z.object({ intent: z.literal("accept"), offer: z.string().min(1).max(200) });

export async function action({ request, params, context }: ActionFunctionArgs) {
  const posted = acceptSchema.safeParse((await readPostedForm(request)).values);
  const asked = new URL(request.url).searchParams.get("lang") === "fr" ? "fr" : "en";
  if (!posted.success) return data({ error: CHANGE_MESSAGES[asked].notUnderstood, fieldErrors: {} }, { status: 400 });
  const { db, registration, lang, entry, found } = await offerContext(request, context, params.registrationId, posted.data.offer);
  if (!entry || !found) return data({ error: WAITLIST_WORDS[lang].offerGone, fieldErrors: {} }, { status: 410 });
  const standing = await offerStanding(db, entry, lang, context.now);
  if (!standing.ok) return data({ error: standing.message, fieldErrors: {} }, { status: standing.status === 200 ? 409 : 410 });
  const elements = await listElements(db, registration.id);
  const quoted = await acceptChangeOffer({ db, registration, elements, entry, found, lang, now: context.now });
  if (quoted.ok === false) return data({ error: Object.values(quoted.errors).join(" "), fieldErrors: {} }, { status: quoted.status });
  const here = `/register/${registration.id}/change-offer?offer=${encodeURIComponent(posted.data.offer)}${lang === "fr" ? "&lang=fr" : ""}`;
  const origin = new URL(request.url).origin;
  return settleChange(context, db, registration, elements, found.cart, quoted, lang, { done: here, back: `${origin}${here}` }, () =>
    markOfferAccepted(db, entry.id, context.now),
  );
}

// A refused Accept (another tab accepted, the offer ended) re-reads the offer, so the page says what became of it.
export const shouldRevalidate = () => true;

export default function ChangeOffer() {
  const { name, lang, message, offer } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <main className="page registration-page" lang={lang}>
      <h1>{name}</h1>
      {reply?.error && offer ? (
        <p role="alert" className="form-error">
          {reply.error}
        </p>
      ) : null}
      {offer ? (
        <Form method="post">
          <p data-testid="offer-status">{offer.prompt}</p>
          {offer.quote.ok ? (
            <>
              <OfferQuoteTable quote={offer.quote} lang={lang} />
              <input type="hidden" name="intent" value="accept" />
              <input type="hidden" name="offer" value={offer.token} />
              <button type="submit" disabled={busy}>
                {CHANGE_WAITLIST_WORDS[lang].accept}
              </button>
            </>
          ) : (
            <p role="alert" className="form-error" data-testid="offer-quote-refused">
              {offer.quote.message}
            </p>
          )}
        </Form>
      ) : (
        <p role="status" data-testid="offer-status">
          {message}
        </p>
      )}
    </main>
  );
}

/** What accepting changes: each answer now and offered, and the difference in price. */
function OfferQuoteTable({ quote, lang }: { quote: Extract<OfferQuote, { ok: true }>; lang: "en" | "fr" }) {
  const words = OFFER_QUOTE_WORDS[lang];
  return (
    <section aria-labelledby="offer-quote-heading">
      <h2 id="offer-quote-heading">{words.heading}</h2>
      <table className="data-table" data-testid="offer-quote">
        <thead>
          <tr>
            <th scope="col"></th>
            <th scope="col">{words.now}</th>
            <th scope="col">{words.offered}</th>
          </tr>
        </thead>
        <tbody>
          {quote.swaps.map((swap) => (
            <tr key={swap.field}>
              <th scope="row">{swap.field}</th>
              <td>{swap.now}</td>
              <td>{swap.offered}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {differenceLines(quote.difference, lang).map((line) => (
        <p key={line} data-testid="offer-difference">
          {line}
        </p>
      ))}
    </section>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...REGISTRATION_FLOW_ERRORS} />;
