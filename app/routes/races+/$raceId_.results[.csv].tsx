import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { sectionsCsv } from "../../../core/print/print-table";
import { csvDownload } from "../../keypad.server";
import { loadPublishedResults } from "../../race-print.server";

/** The published results as CSV (`?format=` as on the results page): one line per racer per result group. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const loaded = await loadPublishedResults(context, params.raceId, new URL(request.url));
  return csvDownload(sectionsCsv("Result group", loaded.sections), loaded.listing.name, "results");
}
