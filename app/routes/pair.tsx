import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { can } from "../../core/access/policy";
import { requireSession, rolesOf } from "../auth.server";
import { ErrorPage, SERVER_ERRORS } from "../components/error-page";

/**
 * The short address a serverbox shows (`/pair?code=…`, decision 0055): the pairing page of the first club
 * whose servers the person may add to, with the code filled in.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireSession(request, context);
  const roles = await rolesOf(context, session.user.id);
  const principal = { userId: session.user.id, roles, activeRoleId: session.activeRoleId };
  const club = roles.find((r) => r.clubId && can(principal, "create", { area: "servers", clubId: r.clubId, siteId: r.siteId }))?.clubId;
  if (!club) throw new Response("Forbidden", { status: 403 });
  const code = new URL(request.url).searchParams.get("code");
  return redirect(`/club/${club}/servers/pair${code ? `?code=${encodeURIComponent(code.slice(0, 20))}` : ""}`);
}

export const ErrorBoundary = () => <ErrorPage page {...SERVER_ERRORS} />;

/** Never shown: the loader always redirects; a refusal shows the error page above. */
export default function PairRedirect() {
  return null;
}
