import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvDownload } from "../../keypad.server";
import { listCsv, requireRankingsAccess, requireScheme, schemePageData } from "../../rankings.server";

/** The season's ranking list as CSV (?season=label, else the scheme's current season). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const access = await requireRankingsAccess(request, context, params.club ?? "");
  const scheme = await requireScheme(access, params.scheme);
  const page = await schemePageData(context.env, { ...access, mayEdit: false }, scheme, new URL(request.url).searchParams.get("season"));
  // A scheme with no season or no results yet exports the header alone, as an empty list.
  const list = page.list ?? { label: page.season ?? "", races: [], racers: [] };
  return csvDownload(listCsv(list), [scheme.name, page.season].filter(Boolean).join(" "), "ranking");
}
