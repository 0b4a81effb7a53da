import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { formatDateTimeIn } from "../../../core/registration/receipt-lines";
import { WAITLIST_WORDS } from "../../../core/registration/waitlist";
import { openDb } from "../../../schema/d1";
import { openCart } from "../../../workers/services/carts";
import { getRegistration } from "../../../workers/services/registration-forms";
import { offerOfCart } from "../../../workers/services/waitlists";
import { cartCookie } from "../../registration-public.server";
import { ErrorPage, REGISTRATION_FLOW_ERRORS } from "../../components/error-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.name} · Waitlist` : "Waitlist" }];

/**
 * The waitlist offer's link (mailed when a place frees up): while the offer stands it opens the cart made for
 * the person, with their place held; afterwards it says what became of the offer.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const db = openDb(context.env.DB);
  const registration = params.registrationId ? await getRegistration(db, context.tenant, params.registrationId).catch(() => null) : null;
  if (!registration) throw new Response("Not found", { status: 404 });
  const url = new URL(request.url);
  const lang = registration.isBilingual && url.searchParams.get("lang") === "fr" ? "fr" : "en";
  const words = WAITLIST_WORDS[lang];
  const token = url.searchParams.get("cart");
  const cart = await openCart(db, registration, token);
  const entry = cart ? await offerOfCart(db, cart.id) : null;
  // 410: the offer is gone for good; the page still says why and links to the form.
  const page = (message: string, status = 410) => data({ name: registration.name, registrationId: registration.id, lang, message }, { status });
  if (!cart || !entry || !token) return page(words.offerGone);
  if (cart.isComplete) return page(words.offerTaken, 200);
  const standing = entry.state === "offered" && (entry.offerExpiresAt ?? 0) > context.now;
  if (!standing)
    return page(
      entry.state === "expired" || entry.state === "offered"
        ? words.offerExpired(formatDateTimeIn(entry.offerExpiresAt ?? context.now, lang))
        : words.offerGone,
    );
  return redirect(`/register/${registration.id}/cart${lang === "fr" ? "?lang=fr" : ""}`, { headers: { "Set-Cookie": cartCookie(registration.id, token) } });
}

export default function WaitlistOffer() {
  const { name, registrationId, lang, message } = useLoaderData<typeof loader>();
  return (
    <main className="page registration-page" lang={lang}>
      <h1>{name}</h1>
      <p role="status" data-testid="offer-status">
        {message}
      </p>
      <p>
        <Link to={`/register/${registrationId}${lang === "fr" ? "?lang=fr" : ""}`}>{lang === "fr" ? "Aller au formulaire" : "Go to the form"}</Link>
      </p>
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...REGISTRATION_FLOW_ERRORS} />;
