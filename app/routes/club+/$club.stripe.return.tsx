import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireClubAdmin } from "../../admin/club-admin.server";
import { returnedFromStripe } from "../../admin/stripe-connect.server";
import { CLUB_ADMIN_ERRORS, ErrorPage } from "../../components/error-page";

/** Stripe's return_url after onboarding: the club's status is read from Stripe, then the admin page shows it. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, stored } = await requireClubAdmin(request, context, params.club ?? "");
  return returnedFromStripe(context, db, String(stored.row.uuid));
}

export const ErrorBoundary = () => <ErrorPage page {...CLUB_ADMIN_ERRORS} />;

/** Never shown: the loader always redirects; a refusal shows the error page above. */
export default function StripeRedirect() {
  return null;
}
