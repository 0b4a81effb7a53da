import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { eq } from "drizzle-orm";
import { carts, openDb, type Db } from "../../../schema/d1";
import { signReceiptLink } from "../../../workers/services/receipt-links";
import { PaymentProviderError, stripeGateway } from "../../../workers/payments/stripe";
import { settlePaidSession } from "../../../workers/payments/settle";
import { attemptOfSession } from "../../../workers/services/payments";
import { getRegistration } from "../../../workers/services/registration-forms";
import { ErrorPage, REGISTRATION_FLOW_ERRORS } from "../../components/error-page";

export const meta: MetaFunction = () => [{ title: "Confirming your payment" }];

/** How often the waiting page looks again for Stripe's confirmation. */
const RECHECK_SECONDS = 2;

/**
 * Stripe's success_url. The webhook usually completes the cart first; if it has not arrived yet, the
 * session is asked for directly, and completing is the same once-only step either way.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const db = openDb(context.env.DB);
  const registration = params.registrationId ? await getRegistration(db, context.tenant, params.registrationId).catch(() => null) : null;
  if (!registration) throw new Response("Not found", { status: 404 });
  const url = new URL(request.url);
  const sessionId = z
    .string()
    .regex(/^cs_[A-Za-z0-9_]{1,200}$/)
    .safeParse(url.searchParams.get("session_id"));
  const attempt = sessionId.success ? await attemptOfSession(db, sessionId.data) : null;
  if (!attempt || attempt.registrationId !== registration.id) throw new Response("This payment was not found.", { status: 404 });
  // A change's payment (a transfer fee) was made from the emailed receipt link, maybe on a device without the cart's cookie.
  const receipt = attempt.change
    ? await changedReceiptPath(context.env, db, registration.id, attempt.cartId, context.now)
    : `/register/${registration.id}/receipt`;
  if (attempt.status === "paid") throw redirect(receipt);
  const gateway = stripeGateway(context.env);
  if (gateway && attempt.checkoutSessionId) {
    try {
      const session = await gateway.retrieveCheckout(attempt.checkoutSessionId, attempt.stripeAccount);
      if (session.paymentStatus === "paid" && session.paymentIntentId) {
        const settled = await settlePaidSession(
          { env: context.env, db, now: context.now, waitUntil: (p) => context.ctx.waitUntil(p) },
          gateway,
          attempt,
          session.paymentIntentId,
        );
        // The places were gone (or the person changed meanwhile) and the money went back: the page they came from says so.
        if (settled === "unplaced") throw redirect(attempt.change ? `${receipt}&changefailed=1` : `/register/${registration.id}/pay`);
        throw redirect(receipt);
      }
    } catch (error) {
      // Stripe unreachable for a moment: keep waiting for the webhook.
      if (!(error instanceof PaymentProviderError)) throw error;
    }
  }
  return { name: registration.name, registrationId: registration.id, failed: attempt.status === "failed" ? attempt.failureMessage : null };
}

async function changedReceiptPath(env: Env, db: Db, registrationId: string, cartId: string, now: number): Promise<string> {
  const [cart] = await db.select().from(carts).where(eq(carts.id, cartId)).limit(1);
  if (!cart) return `/register/${registrationId}/receipt`;
  return `/register/${registrationId}/receipt?receipt=${encodeURIComponent(await signReceiptLink(env, cart, now))}&changed=1`;
}

export default function ConfirmingPayment() {
  const { name, registrationId, failed } = useLoaderData<typeof loader>();
  return (
    <main className="page registration-page">
      {failed ? null : <meta httpEquiv="refresh" content={String(RECHECK_SECONDS)} />}
      <h1>{name}</h1>
      {failed ? (
        <>
          <p role="alert" className="error">{`The payment did not go through: ${failed}`}</p>
          <p>
            <Link to={`/register/${registrationId}/pay`}>Back to payment</Link>
          </p>
        </>
      ) : (
        <p role="status" aria-live="polite">
          Confirming your payment with the bank… This page moves on by itself in a moment.
        </p>
      )}
    </main>
  );
}

export const ErrorBoundary = () => <ErrorPage page {...REGISTRATION_FLOW_ERRORS} />;
