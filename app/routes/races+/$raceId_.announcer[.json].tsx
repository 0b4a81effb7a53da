import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireAnnouncerPage } from "../../announcer.server";

/** The announcer screen's view as JSON (`?format=`), what the screen fetches when its socket says the view changed. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view } = await requireAnnouncerPage(context, params.raceId, new URL(request.url));
  if (!view) throw new Response("Not found", { status: 404 });
  return Response.json(view, { headers: { "Cache-Control": "private, no-store" } });
}
