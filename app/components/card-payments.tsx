import type { CardPaymentsData } from "../admin/stripe-connect.server";
import { SetupForm, useReplyFor } from "./form-kit";

/** The intent of the "Connect with Stripe" / "Continue onboarding" post on the club admin page. */
export const CONNECT_INTENT = "stripe-connect";

/** The club admin page's "Card payments" section: the club's Stripe connection in words and the way to Stripe. */
export function CardPaymentsSection({ data }: { data: CardPaymentsData }) {
  const intent = CONNECT_INTENT;
  const reply = useReplyFor(intent);
  return (
    <section aria-labelledby="card-payments-heading">
      <h2 id="card-payments-heading">Card payments</h2>
      <p data-testid="stripe-status">{data.status}</p>
      {data.stage === "not_connected" || data.stage === "onboarding" ? (
        <p className="hint">
          Registrants can pay by card once Stripe has enabled charges on the club's account. Stripe asks for the club's details and a bank account.
        </p>
      ) : null}
      {data.stage !== "unconfigured" && !data.isStripe ? (
        <p className="hint">Card payments are switched off for this club: a System Administrator turns them on.</p>
      ) : null}
      {data.action ? <SetupForm intent={intent} label={data.action} busyLabel="Opening Stripe…" errors={reply.errors} /> : null}
    </section>
  );
}
