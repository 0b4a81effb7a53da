/**
 * The series pages' loading (issue 27): a series of this host the caller may see, or a 404 (a private
 * series is no page to the public), with its standings; and the points file form of its staff.
 */
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import * as z from "zod";
import { POINTS_FILE_MAX_BYTES } from "../core/series/points-file";
import { standingsPage } from "../core/series/standings-page";
import { openDb } from "../schema/d1";
import { canOnSeries, findSeries, listSeries, savePointsFile, clearPointsFile, type PointsFileReply } from "../workers/services/points-series";
import { principalOf } from "../workers/services/race-access";
import { seriesStandings } from "../workers/services/series-standings";

export async function loadSeriesList(context: AppLoadContext) {
  const db = openDb(context.env.DB);
  const series = await listSeries(db, context.tenant, await principalOf(db, context.session));
  return series.map((s) => ({ id: s.id, name: s.name, year: s.year, clubName: s.clubName, isPublic: s.isPublic }));
}

export async function requireSeries(context: AppLoadContext, key: string | undefined) {
  const db = openDb(context.env.DB);
  const principal = await principalOf(db, context.session);
  const series = await findSeries(db, context.tenant, key, principal);
  if (!series) throw new Response("Not found", { status: 404 });
  return { db, principal, series };
}

/**
 * The standings page: one page per category (`?category=…&page=…`), its points as the text shown. Its
 * Server-Timing says how long the standings took to read or recompute (the series benchmark reads it).
 */
export async function loadSeriesStandings(context: AppLoadContext, key: string | undefined, url: URL) {
  const { db, principal, series } = await requireSeries(context, key);
  const started = performance.now();
  const all = await seriesStandings(context.env, db, series, principal, (work) => context.ctx.waitUntil(work));
  const took = performance.now() - started;
  const { standings, pages, category } = standingsPage(all, url.searchParams.get("category")?.slice(0, 200) ?? null, Number(url.searchParams.get("page") ?? 1));
  const page = {
    series: seriesHeading(series),
    standings,
    pages,
    category,
    staff: canOnSeries(principal, "edit", series),
    hasPointsFile: series.lastPointsFile !== null,
  };
  return data(page, { headers: { "Server-Timing": `standings;dur=${took.toFixed(1)};desc="Standings read or recomputed"` } });
}

/** Every racer of every category, for the CSV. */
export async function loadAllStandings(context: AppLoadContext, key: string | undefined) {
  const { db, principal, series } = await requireSeries(context, key);
  return { series: seriesHeading(series), standings: await seriesStandings(context.env, db, series, principal, (work) => context.ctx.waitUntil(work)) };
}

function seriesHeading(series: Awaited<ReturnType<typeof requireSeries>>["series"]) {
  return { id: series.id, name: series.name, year: series.year, clubName: series.clubName, isPublic: series.isPublic };
}

const intentSchema = z.enum(["upload", "clear"]);

/** The staff's points file form: an upload replaces the file whole, or nothing is written; "clear" removes it. */
export async function postPointsFile(context: AppLoadContext, key: string | undefined, request: Request): Promise<PointsFileReply & { status: number }> {
  const { db, principal, series } = await requireSeries(context, key);
  if (!canOnSeries(principal, "edit", series)) throw new Response("Forbidden", { status: 403 });
  const tooLarge = { ok: false as const, errors: ["The file is larger than 1 MB"], status: 413 };
  if (Number(request.headers.get("Content-Length") ?? 0) > POINTS_FILE_MAX_BYTES + 64 * 1024) return tooLarge;
  const form = await request.formData().catch(() => null);
  const intent = intentSchema.safeParse(form?.get("intent"));
  if (!form || !intent.success) return { ok: false, errors: ["Unknown action"], status: 400 };
  if (intent.data === "clear") {
    await clearPointsFile(db, series);
    return { ok: true, rows: 0, status: 200 };
  }
  const file = form.get("file");
  if (!file || typeof file === "string" || file.size === 0) return { ok: false, errors: ["Choose a CSV file of points"], status: 400 };
  if (file.size > POINTS_FILE_MAX_BYTES) return tooLarge;
  const reply = await savePointsFile(db, series, await file.text());
  return { ...reply, status: reply.ok ? 200 : 400 };
}
