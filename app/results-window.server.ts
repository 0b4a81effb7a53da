/**
 * The results page's data on the server: the race, the format chosen from the address, and the page of rows
 * the address asks for (schema/wire/results-window.ts). The page's loader and its JSON twin share it, so
 * both answer the same address alike.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { readWindowQuery } from "../schema/wire/results-window";
import type { Db } from "../schema/d1";
import type { RaceCatalogue } from "../workers/services/race-access";
import { edgeCacheKey, sharedAnswer } from "../workers/services/edge-cache";
import { loadResultsWindow } from "../workers/services/race-results";
import { requirePublicRace, routeIdOf } from "./public-race.server";

export async function loadWindowFor(context: AppLoadContext, rawRaceId: string | undefined, url: URL) {
  const { db, listing, race } = await requirePublicRace(context, rawRaceId);
  return { listing, race, view: await windowOf(context, db, race, url) };
}

/** Answers cached at the edge keep this long; each is named by its version, so this only bounds the cache's size. */
const WINDOW_CACHE_SECONDS = 60;

/**
 * A page of results as JSON. A crowd following one page asks for the version its socket brought (`v`), so one
 * answer per version and data centre is built; only formats anyone may see are shared, and a private race's
 * never are (access is checked on every request, before the cache).
 */
export async function windowJson(context: AppLoadContext, rawRaceId: string | undefined, url: URL): Promise<Response> {
  const { db, race } = await requirePublicRace(context, rawRaceId);
  const build = async () => {
    const view = await windowOf(context, db, race, url);
    if (!view.current) throw new Response("Not found", { status: 404 });
    const kind = view.formats.find((f) => f.id === view.current?.format.formatId)?.kind;
    const shared = url.searchParams.has("v") && race.visibility !== "private" && kind !== undefined && kind !== "system";
    return { response: Response.json(view.current, { headers: { "Cache-Control": "no-store" } }), shared };
  };
  return sharedAnswer(edgeCacheKey(`/races/${race.id}/results.json`, url.searchParams), WINDOW_CACHE_SECONDS, build, (p) => context.ctx.waitUntil(p));
}

async function windowOf(context: AppLoadContext, db: Db, race: RaceCatalogue, url: URL) {
  const read = readWindowQuery(url.searchParams);
  // Group ids join the format's id and the group's key ("<format>:course:<course>"); an unknown one opens the first group.
  const group = read.group !== null && /^[\w:-]{1,200}$/.test(read.group) ? read.group : null;
  const query = { ...read, group, racer: routeIdOf(read.racer) };
  // An empty `format=` is no choice (the default format), as a hand-edited link means it.
  const formatParam = url.searchParams.get("format") || null;
  const formatId = formatParam === null ? null : routeIdOf(formatParam);
  if (formatParam !== null && formatId === null) throw new Response("Not found", { status: 404 });
  const view = await loadResultsWindow(context.env, db, context.session, race, formatId, query);
  if (formatId && !view.current) throw new Response("Not found", { status: 404 });
  return view;
}
