/**
 * The announcer screen's data for its page and its JSON twin (decision 0045): one guard, so both answer the
 * same address alike, and 404 to anyone who may not see the race's system formats.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import * as z from "zod";
import { openDb } from "../schema/d1";
import { loadAnnouncerPage } from "../workers/services/announcer";
import { routeIdOf } from "./public-race.server";

export async function requireAnnouncerPage(context: AppLoadContext, rawRaceId: string | undefined, url: URL) {
  const raceId = z.uuid().safeParse(rawRaceId);
  const formatParam = url.searchParams.get("format");
  const formatId = formatParam === null ? null : routeIdOf(formatParam);
  const page =
    raceId.success && (formatParam === null || formatId !== null)
      ? await loadAnnouncerPage(context.env, openDb(context.env.DB), context.tenant, context.session, raceId.data, formatId)
      : null;
  if (!page) throw new Response("Not found", { status: 404 });
  return page;
}
