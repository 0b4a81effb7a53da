import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireClubAdmin } from "../../admin/club-admin.server";
import { onboardingAgain } from "../../admin/stripe-connect.server";
import { CLUB_ADMIN_ERRORS, ErrorPage } from "../../components/error-page";

/** Stripe's refresh_url: the onboarding link expired or was used, so the club goes on with a new one. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, stored } = await requireClubAdmin(request, context, params.club ?? "");
  return onboardingAgain(context, db, String(stored.row.uuid));
}

export const ErrorBoundary = () => <ErrorPage page {...CLUB_ADMIN_ERRORS} />;

/** Never shown: the loader always redirects; a refusal shows the error page above. */
export default function StripeRedirect() {
  return null;
}
