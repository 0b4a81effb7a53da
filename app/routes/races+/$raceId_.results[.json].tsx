import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { windowJson } from "../../results-window.server";

/**
 * A page of results as JSON (the results page's address, `?format=&group=&q=&sort=&page=`): what a paged
 * results page fetches when pushed rows move its page. `v` names the version the page holds.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return windowJson(context, params.raceId, new URL(request.url));
}
