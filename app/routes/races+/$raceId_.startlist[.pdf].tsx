import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { startListPdfOf } from "../../race-print.server";

/** The start list as a PDF, on the start list page's terms: each start group and course from a new page. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  return startListPdfOf(context, params.raceId);
}
