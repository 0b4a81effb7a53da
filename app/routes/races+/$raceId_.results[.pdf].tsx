import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadPublishedResults, resultsPdf } from "../../race-print.server";

/** The published results as a PDF (`?format=` as on the results page): each result group from a new page. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return resultsPdf(await loadPublishedResults(context, params.raceId, new URL(request.url)));
}
