/**
 * Server code of a club's ranking pages (decision 0054): who opens them (the rankingschemes area of the club:
 * its Organization Admin, or a System or Site Administrator with the flag), the schemes list and a new
 * scheme, a scheme's list for a season and its CSV, and the scheme's seasons, races and method numbers. Every
 * write goes through the entity service, so these forms, /_admin/rankingschemes and the data API refuse the
 * same things with the same words.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { desc, eq } from "drizzle-orm";
import * as z from "zod";
import { can } from "../core/access/policy";
import { spreadsheetCsv } from "../core/entity/csv";
import type { SeasonList } from "../core/rankings/season-lists";
import { clubs, openDb, races, type Db } from "../schema/d1";
import { RankingScheme } from "../schema/entities/admin-classes";
import { rankingConfigOf, type RankingConfig } from "../schema/wire/ranking-config";
import { changeEntity, createEntity, readVisible, type Caller, type EntityContext, type Refusal } from "../workers/services/entity-service";
import { currentSeasonIndex, findScheme, schemeLists, type SchemeRecord } from "../workers/services/ranking-lists";
import { requireSession, rolesOf } from "./auth.server";
import type { PostedForm } from "./forms/posted-form.server";

export async function requireRankingsAccess(request: Request, context: AppLoadContext, clubId: string) {
  const session = requireSession(request, context);
  const principal = { userId: session.user.id, roles: await rolesOf(context, session.user.id), activeRoleId: session.activeRoleId };
  if (!/^[0-9a-f-]{36}$/.test(clubId)) throw new Response("Not found", { status: 404 });
  const db = openDb(context.env.DB);
  // The club's site too, so a Site Administrator of that site with the flag reaches it.
  const [club] = await db.select({ siteId: clubs.siteId }).from(clubs).where(eq(clubs.id, clubId)).limit(1);
  const object = { area: "rankingschemes" as const, clubId, siteId: club?.siteId ?? null };
  if (!club || !can(principal, "view", object)) {
    throw principal.roles.some((r) => r.clubId === clubId) ? new Response("Forbidden", { status: 403 }) : new Response("Not found", { status: 404 });
  }
  const entityContext: EntityContext = { env: context.env, tenant: context.tenant, ctx: context.ctx, now: context.now, db };
  const caller: Caller = { principal, userId: session.user.id, appId: "" };
  return { db, entityContext, caller, clubId, mayEdit: can(principal, "edit", object) };
}

export type RankingsAccess = Awaited<ReturnType<typeof requireRankingsAccess>>;

/** The refusal's words by form field: config paths lose their "config." prefix; anything else is the form's. */
function errorsOf(refusal: Refusal): Record<string, string> {
  const fields = refusal.body.fields;
  const errors: Record<string, string> = {};
  if (fields && !Array.isArray(fields)) for (const [key, message] of Object.entries(fields)) errors[key.replace(/^config\./, "")] = message as string;
  if (Object.keys(errors).length === 0) errors.form = refusal.body.message.replace(/^Invalid value for '[^']*': /, "");
  return errors;
}

const newSchemeForm = z.object({
  submission: z.uuid("This form has expired; open the page again"),
  name: z.string().trim().min(1, "Enter the scheme's name").max(200, "At most 200 characters"),
  sport: z.string().trim().max(100, "At most 100 characters"),
  season: z.string().trim().min(1, "Enter the first season's label, like 2026 or 2025-26").max(50, "A season label is at most 50 characters"),
});

export type FormReply = { ok: true; id: string } | { ok: false; errors: Record<string, string> };

/** A new FIS scheme with its first season; the form's one-time id makes a double click create it once. */
export async function createScheme(access: RankingsAccess, posted: PostedForm): Promise<FormReply> {
  const read = newSchemeForm.safeParse(posted.values);
  if (!read.success)
    return { ok: false, errors: Object.fromEntries(read.error.issues.map((i) => [i.path[0] === "submission" ? "form" : String(i.path[0]), i.message])) };
  const { submission, name, sport, season } = read.data;
  const created = await createEntity(access.entityContext, access.caller, RankingScheme, {
    uuid: submission,
    club: access.clubId,
    name,
    sport: sport || null,
    season,
    method: "fis_points",
    config: { method: "fis", seasons: [{ label: season, races: [] }] },
  });
  // The same form sent twice made it the first time: the 409 of its one-time id is success.
  if (!created.ok && created.refusal.status !== 409) return { ok: false, errors: errorsOf(created.refusal) };
  return { ok: true, id: submission };
}

export async function requireScheme(access: RankingsAccess, id: string | undefined): Promise<SchemeRecord> {
  const scheme = await findScheme(access.db, access.clubId, id);
  if (!scheme) throw new Response("Not found", { status: 404 });
  return scheme;
}

/** The season a page asks for (?season=label), else the scheme's current one; -1 when it has none. */
export function seasonIndexOf(scheme: SchemeRecord, config: RankingConfig, asked: string | null): number {
  const found = asked ? config.seasons.findIndex((s) => s.label === asked) : -1;
  return found >= 0 ? found : currentSeasonIndex(scheme, config);
}

async function clubRaces(db: Db, clubId: string) {
  return db
    .select({ id: races.id, name: races.name, startTime: races.startTime, timezone: races.timezone })
    .from(races)
    .where(eq(races.clubId, clubId))
    .orderBy(desc(races.startTime))
    .limit(500);
}

/** The scheme page: its seasons, the chosen season's list, and (for editors) the club's races to choose from. */
export async function schemePageData(env: Env, access: RankingsAccess, scheme: SchemeRecord, asked: string | null) {
  const config = rankingConfigOf(scheme.config);
  const index = seasonIndexOf(scheme, config, asked);
  const lists = config.seasons.length > 0 ? await schemeLists(env, access.db, scheme) : [];
  const list: SeasonList | null = lists[index] ?? null;
  const season = config.seasons[index] ?? null;
  return {
    scheme: { id: scheme.id, name: scheme.name, sport: scheme.sport, current: scheme.season },
    config,
    seasons: config.seasons.map((s) => s.label),
    season: season?.label ?? null,
    seasonRaces: season?.races.map((r) => r.race) ?? [],
    list,
    clubRaces: access.mayEdit ? await clubRaces(access.db, access.clubId) : [],
  };
}

/** The list as CSV: Rank, Name, Club, Points, Results, then each race's result points (a result not counted in brackets). */
export function listCsv(list: SeasonList): string {
  const header = ["Rank", "Name", "Club", "Points", "Results", ...list.races.map((r) => r.name)];
  const rows = list.racers.map((r) => [
    String(r.rank),
    r.name,
    r.club ?? "",
    r.points.toFixed(2),
    String(r.results.length),
    ...list.races.map((race) => {
      const result = r.results.find((x) => x.race === race.id);
      return result ? (result.counted ? result.points.toFixed(2) : `(${result.points.toFixed(2)})`) : "";
    }),
  ]);
  return spreadsheetCsv(header, rows);
}

async function saveConfig(access: RankingsAccess, scheme: SchemeRecord, body: Record<string, unknown>): Promise<FormReply> {
  const stored = await readVisible(access.entityContext, access.caller, RankingScheme, scheme.id);
  if (!stored) throw new Response("Not found", { status: 404 });
  const changed = await changeEntity(access.entityContext, access.caller, RankingScheme, stored, body, undefined);
  return changed.ok ? { ok: true, id: scheme.id } : { ok: false, errors: errorsOf(changed.refusal) };
}

/** The chosen season's races: the club's races ticked on the form (race_{id}); the other seasons keep theirs. */
export async function saveSeasonRaces(access: RankingsAccess, scheme: SchemeRecord, posted: PostedForm): Promise<FormReply> {
  const config = rankingConfigOf(scheme.config);
  const label = posted.values.season ?? "";
  const at = config.seasons.findIndex((s) => s.label === label);
  if (at < 0) return { ok: false, errors: { form: "Choose one of the scheme's seasons" } };
  const ticked = Object.keys(posted.values)
    .filter((key) => key.startsWith("race_"))
    .map((key) => key.slice(5));
  const kept = new Map(config.seasons[at]!.races.map((r) => [r.race, r]));
  const seasons = config.seasons.map((s, i) => (i === at ? { ...s, races: ticked.map((race) => kept.get(race) ?? { race, format: null }) } : s));
  return saveConfig(access, scheme, { config: { ...config, seasons } });
}

/** A new season, made the scheme's current one. */
export async function addSeason(access: RankingsAccess, scheme: SchemeRecord, posted: PostedForm): Promise<FormReply> {
  const config = rankingConfigOf(scheme.config);
  const label = (posted.values.label ?? "").trim();
  if (!label) return { ok: false, errors: { label: "Enter the season's label, like 2026 or 2025-26" } };
  return saveConfig(access, scheme, { season: label, config: { ...config, seasons: [...config.seasons, { label, races: [] }] } });
}

const METHOD_FIELDS = ["factor", "penalty_count", "top_finishers", "divisor", "unranked_points", "min_penalty", "max_penalty", "best_n"] as const;

/** The method's numbers as typed: a number that cannot be read is refused by the config's own schema words. */
export async function saveMethod(access: RankingsAccess, scheme: SchemeRecord, posted: PostedForm): Promise<FormReply> {
  const config = rankingConfigOf(scheme.config);
  const numbers: Record<string, unknown> = {};
  for (const key of METHOD_FIELDS) {
    const typed = (posted.values[key] ?? "").trim().replace(",", ".");
    // An empty maximum penalty is none; any other empty or unreadable number is refused by the schema's words.
    numbers[key] = key === "max_penalty" && typed === "" ? null : typed === "" || !Number.isFinite(Number(typed)) ? typed : Number(typed);
  }
  const mode = posted.values.list_mode;
  const categories = (posted.values.categories ?? "")
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean);
  return saveConfig(access, scheme, { config: { ...config, ...numbers, list_mode: mode, categories } });
}
