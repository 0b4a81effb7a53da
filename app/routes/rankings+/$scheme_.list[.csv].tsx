import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvDownload } from "../../keypad.server";
import { loadPublicList } from "../../public-rankings.server";
import { listCsv } from "../../rankings.server";

/** A public scheme's season list as CSV (?season=label, else its current season); the header alone when empty. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const page = await loadPublicList(context, params.scheme, new URL(request.url).searchParams.get("season"));
  const list = page.list ?? { label: page.season ?? "", races: [], racers: [] };
  return csvDownload(listCsv(list), [page.scheme.name, page.season].filter(Boolean).join(" "), "ranking");
}
