/**
 * The public ranking lists on a club's site (decision 0064): `/rankings` and `/rankings/{scheme}`. A scheme is
 * shown only when it is public and of this site (the main host reaches any public one, the admin host none);
 * a private scheme is a 404 to everyone here, its staff included: their page is /club/{club}/rankings.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, asc, eq, type SQL } from "drizzle-orm";
import type { SeasonList } from "../core/rankings/season-lists";
import { clubs, openDb, rankingSchemes } from "../schema/d1";
import { rankingConfigOf } from "../schema/wire/ranking-config";
import { schemeColumns, schemeLists, type SchemeRecord } from "../workers/services/ranking-lists";
import type { Tenant } from "../tenants/resolve";
import { seasonIndexOf } from "./rankings.server";

const columns = { ...schemeColumns, clubName: clubs.name };

function publicScope(tenant: Tenant): SQL | null {
  if (tenant.kind === "admin") return null;
  const isPublic = eq(rankingSchemes.isPublic, true);
  return tenant.kind === "site" ? and(isPublic, eq(rankingSchemes.siteId, tenant.siteId))! : isPublic;
}

/** The site's public schemes, by name. */
export async function loadPublicSchemes(context: AppLoadContext) {
  const scope = publicScope(context.tenant);
  if (!scope) return [];
  const db = openDb(context.env.DB);
  const rows = await db
    .select({ id: rankingSchemes.id, name: rankingSchemes.name, sport: rankingSchemes.sport, clubName: clubs.name })
    .from(rankingSchemes)
    .innerJoin(clubs, eq(clubs.id, rankingSchemes.clubId))
    .where(scope)
    .orderBy(asc(rankingSchemes.name))
    .limit(500);
  return rows;
}

async function requirePublicScheme(context: AppLoadContext, id: string | undefined): Promise<SchemeRecord & { clubName: string }> {
  const scope = publicScope(context.tenant);
  if (!scope || !id || !/^[0-9a-f-]{36}$/.test(id)) throw new Response("Not found", { status: 404 });
  const db = openDb(context.env.DB);
  const [scheme] = await db
    .select(columns)
    .from(rankingSchemes)
    .innerJoin(clubs, eq(clubs.id, rankingSchemes.clubId))
    .where(and(scope, eq(rankingSchemes.id, id)))
    .limit(1);
  if (!scheme) throw new Response("Not found", { status: 404 });
  return scheme;
}

/** A public scheme's season list (?season=label, else its current season); null list when it has none yet. */
export async function loadPublicList(context: AppLoadContext, id: string | undefined, asked: string | null) {
  const scheme = await requirePublicScheme(context, id);
  const config = rankingConfigOf(scheme.config);
  const index = seasonIndexOf(scheme, config, asked?.slice(0, 50) ?? null);
  const lists = config.seasons.length > 0 ? await schemeLists(context.env, openDb(context.env.DB), scheme) : [];
  const list: SeasonList | null = lists[index] ?? null;
  return {
    scheme: { id: scheme.id, name: scheme.name, sport: scheme.sport, clubName: scheme.clubName, table: scheme.method === "points_table" },
    seasons: config.seasons.map((s) => s.label),
    season: config.seasons[index]?.label ?? null,
    plus20: config.one_result_plus_20,
    list,
  };
}
