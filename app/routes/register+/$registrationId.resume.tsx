import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { openDb } from "../../../schema/d1";
import { openCart } from "../../../workers/services/carts";
import { getRegistration } from "../../../workers/services/registration-forms";
import { cartCookie } from "../../registration-public.server";
import { ErrorPage, REGISTRATION_FLOW_ERRORS } from "../../components/error-page";

/** The emailed "finish later" link: opens the cart on this device, then shows it. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const db = openDb(context.env.DB);
  const registration = params.registrationId ? await getRegistration(db, context.tenant, params.registrationId).catch(() => null) : null;
  if (!registration) throw new Response("Not found", { status: 404 });
  const token = new URL(request.url).searchParams.get("cart");
  const cart = await openCart(db, registration, token);
  if (!cart || !token) throw new Response("This link no longer opens a cart. A newer link may have been sent, or the cart was removed.", { status: 400 });
  return redirect(`/register/${registration.id}/cart`, { headers: { "Set-Cookie": cartCookie(registration.id, token) } });
}

export const ErrorBoundary = () => <ErrorPage page {...REGISTRATION_FLOW_ERRORS} />;
