/**
 * Cross-field rules of the admin areas' entities (issue 25), run on the entity as it would be stored by the
 * entity service for both the data API and the administration pages. The spec gives these entities no
 * messages; the words here are ours (docs/decisions/0032-administration-from-the-registry.md).
 */
import { and, eq, inArray, ne } from "drizzle-orm";
import { audienceFilterProblem, isLocked, namesSomebody, type NewsletterAudience } from "../../core/newsletters/mailing";
import { PASS_MESSAGES } from "../../core/passes/pass-status";
import { seriesConfigProblems } from "../../core/series/config-rules";
import { rankingConfigProblems, rankingMethodProblems } from "../../core/rankings/config-rules";
import { foldName } from "../../core/series/identity";
import { includedCycle, PACKING_MESSAGES, type IncludedEntry } from "../../core/shipping/packing";
import { compileFormula } from "../../core/series/formula";
import { colourProblems } from "../../core/sites/contrast";
import { isSiteMedia } from "../../core/sites/images";
import { pagePathProblem } from "../../core/sites/page-paths";
import { personKey } from "../../core/memberships/membership";
import { GOCHIP_MESSAGES } from "../../core/gochips/chips";
import {
  divisionPeople,
  divisionSeasons,
  divisions,
  emailNewsletters,
  eventPages,
  gochipLots,
  gochipRacks,
  inventoryTypes,
  races,
  registrations,
  shipments,
  type Db,
} from "../../schema/d1";
import { pageBodyProblems } from "../../schema/wire/page-blocks";
import { pointsSystemOf, seriesConfigSchema } from "../../schema/wire/series-config";
import { rankingConfigSchema } from "../../schema/wire/ranking-config";
import { audienceRaceChoices } from "./newsletters";
import { findPointsSystem } from "./points-series";
import { siteConfigSchema } from "../../schema/wire/site-config";
import type { WriteRule } from "./entity-rules";

type Problems = Record<string, string> | null;
const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const problems = (found: Record<string, string>): Problems => (Object.keys(found).length > 0 ? found : null);

/** ISO dates compare as text. */
function dateOrder(next: Readonly<Record<string, unknown>>, first: string, last: string, message: string): Problems {
  const from = text(next[first]);
  const until = text(next[last]);
  return from && until && until < from ? { [last]: message } : null;
}

/** Dates in order, an address no other event of the site has, and links only to the club's own races and forms. */
export const eventPageRule: WriteRule = async (db, id, next) => {
  const found: Record<string, string> = { ...dateOrder(next, "start_date", "end_date", "The end date must be on or after the start date") };
  const site = text(next.site);
  const path = text(next.page_url);
  if (site && path) {
    // The unique index still decides a concurrent write; this says it in words a club understands first.
    const [twin] = await db
      .select({ id: eventPages.id })
      .from(eventPages)
      .where(and(eq(eventPages.siteId, site), eq(eventPages.pageUrl, path), ne(eventPages.id, id)))
      .limit(1);
    if (twin) found.page_url = `Another event on this site already has the address /events/${path}; choose another`;
  }
  const banner = text(next.banner_url);
  // An uploaded banner is served by its own site only, so another site's upload would never show here.
  if (banner?.startsWith("/") && site && !isSiteMedia(banner, site)) found.banner_url = "Upload the banner to this event's site";
  const club = text(next.club) ?? "";
  const missingRaces = await notTheClubs(db, races, club, next.race_ids);
  if (missingRaces.length > 0) found.race_ids = `These are not races of this club: ${missingRaces.join(", ")}`;
  const missingForms = await notTheClubs(db, registrations, club, next.registration_ids);
  if (missingForms.length > 0) found.registration_ids = `These are not registration forms of this club: ${missingForms.join(", ")}`;
  return problems(found);
};

/** The ids in `value` that name no row of `table` owned by `club`, so an event never links another club's race. */
async function notTheClubs(db: Db, table: typeof races | typeof registrations, club: string, value: unknown): Promise<string[]> {
  const ids = Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  if (ids.length === 0) return [];
  const owned = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.clubId, club), inArray(table.id, ids)));
  const ownedIds = new Set(owned.map((row) => row.id));
  return [...new Set(ids.filter((id) => !ownedIds.has(id)))];
}

/** A pass's days in order; a revoked pass says why (the card and check-in show the reason to staff). */
export const passRule: WriteRule = async (_db, _id, next) =>
  dateOrder(next, "valid_from", "valid_until", PASS_MESSAGES.order) ??
  (next.revoked_time != null && !text(next.revoke_reason) ? problems({ revoke_reason: PASS_MESSAGES.reason }) : null);

export const validationSystemRule: WriteRule = async (_db, _id, next) =>
  next.kind === "pattern" && !text(next.pattern) ? problems({ pattern: "Enter the pattern valid numbers must match" }) : null;

export const NEWSLETTER_MESSAGES = {
  sent: "This newsletter has been sent and can no longer be changed",
  past: "Choose a time from now on",
  empty: "Add at least one block before sending",
  nobody: "Choose who receives it: the club's members, the people registered on a form, the entrants of a race, or any of them",
  otherForms: "Choose registration forms of this newsletter's club",
  otherRaces: "Choose races of this newsletter's club",
} as const;

/** How far in the past a "send now" may be stamped: the page's clock and the rule's may differ by a moment. */
const SEND_NOW_GRACE_MS = 60_000;

/**
 * A sent newsletter is a record of what members received, so it stays as it was sent. Scheduling one (a
 * sent_time) needs something to send and someone to send it to, among the club's own forms.
 */
export const newsletterRule: WriteRule = async (db, id, next, env) => {
  const now = Date.now();
  const [stored] = await db
    .select({ sentTime: emailNewsletters.sentTime, dispatchedTime: emailNewsletters.dispatchedTime })
    .from(emailNewsletters)
    .where(eq(emailNewsletters.id, id));
  if (stored && (isLocked(stored.sentTime, now) || stored.dispatchedTime !== null)) return problems({ form: NEWSLETTER_MESSAGES.sent });
  // The course and category filters name what the chosen races offer, checked on every save (a draft's summary counts by them).
  const filterProblem = await entrantFilterProblem(db, env, String(next.club), next.audience as NewsletterAudience | undefined);
  if (typeof next.sent_time !== "number") return filterProblem ? { audience: filterProblem } : null;
  const found: Record<string, string> = filterProblem ? { audience: filterProblem } : {};
  if (next.sent_time < now - SEND_NOW_GRACE_MS) found.sent_time = NEWSLETTER_MESSAGES.past;
  if (!Array.isArray(next.elements) || next.elements.length === 0) found.elements = NEWSLETTER_MESSAGES.empty;
  const audience = next.audience as NewsletterAudience | undefined;
  const forms = [...new Set(audience?.registrations ?? [])];
  const raceIds = [...new Set(audience?.races ?? [])];
  if (!audience || !namesSomebody(audience)) found.audience = NEWSLETTER_MESSAGES.nobody;
  else {
    const club = String(next.club);
    if (forms.length > 0) {
      const own = await db
        .select({ id: registrations.id })
        .from(registrations)
        .where(and(inArray(registrations.id, forms), eq(registrations.clubId, club)));
      if (own.length !== forms.length) found.audience = NEWSLETTER_MESSAGES.otherForms;
    }
    if (raceIds.length > 0 && !found.audience) {
      const own = await db
        .select({ id: races.id })
        .from(races)
        .where(and(inArray(races.id, raceIds), eq(races.clubId, club)));
      if (own.length !== raceIds.length) found.audience = NEWSLETTER_MESSAGES.otherRaces;
    }
  }
  return problems(found);
};

/** A course or category filter not offered by the club's chosen races (core/newsletters/mailing.ts), asked of their RaceRooms only when a filter is set. */
async function entrantFilterProblem(db: Db, env: Env, club: string, audience: NewsletterAudience | undefined): Promise<string | null> {
  if (!audience || ((audience.courses ?? []).length === 0 && (audience.categories ?? []).length === 0)) return null;
  const offered = await audienceRaceChoices(env, db, club, [...new Set(audience.races ?? [])]);
  return audienceFilterProblem(audience, { courses: new Set(offered.courses.map((c) => c.id)), categories: new Set(offered.categories) });
}

/** A site's colours must stay readable (core/sites/contrast.ts); problems are keyed by the config path. */
export const siteRule: WriteRule = async (_db, _id, next) => {
  const parsed = siteConfigSchema.safeParse(next.config);
  if (!parsed.success) return null; // The field's own schema has refused it already.
  const found = colourProblems(parsed.data.colours);
  return problems(Object.fromEntries(Object.entries(found).map(([colour, message]) => [`config.colours.${colour}`, message])));
};

/** A series' config rules (core/series/config-rules.ts), and its races must be races of the series' club. */
export const pointsSeriesRule: WriteRule = async (db, _id, next) => {
  const parsed = seriesConfigSchema.safeParse(next.config);
  if (!parsed.success) return null; // The field's own schema has refused it already.
  const config = parsed.data;
  const clubId = text(next.club);
  const linked = config.points_system && clubId ? await findPointsSystem(db, clubId, config.points_system) : null;
  if (config.points_system && !linked)
    return problems({ "config.points_system": `No points system of this club or the platform has the id ${config.points_system}` });
  // With a points system, its rule and best N are the ones checked (a problem of the system is reported on the link).
  const effective = linked ? { ...config, points: pointsSystemOf(config, linked).rule, best_of: pointsSystemOf(config, linked).bestOf } : config;
  const found = Object.fromEntries(
    Object.entries(seriesConfigProblems(effective) ?? {}).map(([key, message]) => [
      linked && key.startsWith("config.points.") ? "config.points_system" : key,
      message,
    ]),
  );
  const ids = [...new Set(config.races.map((r) => r.race))];
  if (ids.length > 0 && !found["config.races"]) {
    const known = clubId
      ? await db
          .select({ id: races.id })
          .from(races)
          .where(and(eq(races.clubId, clubId), inArray(races.id, ids)))
      : [];
    const missing = ids.filter((id) => !known.some((k) => k.id === id));
    if (missing.length > 0) found["config.races"] = `No race of this club has the id ${missing[0]}`;
  }
  return problems(found);
};

/** A points system's table never rises and its formula can be read (the same checks a series' own rule has). */
export const pointsSystemRule: WriteRule = async (_db, _id, next) => {
  const table = Array.isArray(next.points_table) ? (next.points_table as number[]) : [];
  if (next.method === "table") {
    if (table.length === 0) return problems({ points_table: "Enter the points of 1st place at least" });
    const rising = seriesConfigProblems({ points: { method: "table", table }, best_of: null, races: [] })?.["config.points.table"];
    return rising ? problems({ points_table: rising }) : null;
  }
  const formula = text(next.formula);
  if (!formula) return problems({ formula: "Enter the formula" });
  const compiled = compileFormula(formula);
  return compiled.ok ? null : problems({ formula: compiled.message });
};

/** A type's included types exist, and none includes itself through the others (a packing list would never end). */
export const inventoryTypeRule: WriteRule = async (db, id, next) => {
  const key = text(next.key);
  const included = Array.isArray(next.included) ? (next.included as IncludedEntry[]) : [];
  if (!key || included.length === 0) return null;
  const rows = await db.select({ id: inventoryTypes.id, key: inventoryTypes.key, included: inventoryTypes.included }).from(inventoryTypes);
  const types = new Map(rows.filter((r) => r.id !== id).map((r) => [r.key, { included: r.included }]));
  types.set(key, { included });
  for (const entry of included) {
    const child = typeof entry === "string" ? entry : entry.key;
    if (!types.has(child)) return problems({ included: PACKING_MESSAGES.unknown(child) });
  }
  const cycle = includedCycle(types, [key]);
  return cycle ? problems({ included: PACKING_MESSAGES.cycle(cycle) }) : null;
};

/**
 * A site page's address is URL-safe and not one of the product's own (core/sites/page-paths.ts); a taken one
 * is refused by the unique index (409, "Another Page already has this path"). Its bodies (English and French)
 * are well-formed blocks or plain text (schema/wire/page-blocks.ts).
 */
export const pageRule: WriteRule = async (_db, _id, next) => {
  const found: Record<string, string> = {};
  const path = text(next.path);
  const pathProblem = path ? pagePathProblem(path) : null;
  if (pathProblem) found.path = pathProblem;
  for (const field of ["body", "body_fr"] as const) {
    for (const [at, message] of Object.entries(pageBodyProblems(text(next[field]) ?? "") ?? {})) found[at ? `${field}.${at}` : field] ??= message;
  }
  return problems(found);
};

export const RANKING_SCHEME_MESSAGES = {
  notTheClubs: (id: string) => `No race of this club has the id ${id}`,
  sport: (race: string, sport: string, scheme: string) => `${race} is a ${sport} race; this scheme ranks ${scheme}`,
} as const;

/** A ranking scheme's config rules (core/rankings/config-rules.ts); its races are the club's, of the scheme's sport when it names one. */
export const rankingSchemeRule: WriteRule = async (db, _id, next) => {
  const parsed = rankingConfigSchema.safeParse(next.config);
  if (!parsed.success) return null; // The field's own schema has refused it already.
  const methodProblems = rankingMethodProblems(String(next.method), parsed.data);
  if (methodProblems?.method) return methodProblems;
  const found: Record<string, string> = { ...methodProblems, ...rankingConfigProblems(parsed.data, text(next.season)) };
  const ids = [...new Set(parsed.data.seasons.flatMap((s) => s.races.map((r) => r.race)))];
  const clubId = text(next.club);
  if (ids.length > 0 && !found["config.seasons"]) {
    const known = clubId
      ? await db
          .select({ id: races.id, name: races.name, sport: races.sport })
          .from(races)
          .where(and(eq(races.clubId, clubId), inArray(races.id, ids)))
      : [];
    const missing = ids.find((id) => !known.some((k) => k.id === id));
    const sport = text(next.sport);
    const otherSport = sport ? known.find((k) => k.sport && foldName(k.sport) !== foldName(sport)) : undefined;
    if (missing) found["config.seasons"] = RANKING_SCHEME_MESSAGES.notTheClubs(missing);
    else if (otherSport && sport) found["config.seasons"] = RANKING_SCHEME_MESSAGES.sport(otherSport.name, otherSport.sport!, sport);
  }
  return problems(found);
};
export const MEMBER_MESSAGES = {
  season: "Choose a season of this division",
  person: "Choose a person of this division",
  expires: (end: string) => `A membership ends with its season: its expires_at is the season's end, ${end}`,
  programs: (names: string[]) => `These are not programs of this division: ${names.join(", ")}`,
  samePerson: (number: number) => `Member ${number} of this division already has this name and birth date`,
} as const;

/**
 * A membership is of a season and a person of its own division, ends when the season does (reports and
 * newsletters read expires_at), and lists only the division's programs (compared without case, as recorded).
 */
export const divisionMemberRule: WriteRule = async (db, _id, next) => {
  const division = text(next.division);
  if (!division) return null; // The field's own shape has refused it already.
  const found: Record<string, string> = {};
  const [season] = text(next.season)
    ? await db
        .select({ endsAt: divisionSeasons.endsAt })
        .from(divisionSeasons)
        .where(and(eq(divisionSeasons.id, String(next.season)), eq(divisionSeasons.divisionId, division)))
    : [];
  if (!season) found.season = MEMBER_MESSAGES.season;
  else if (next.expires_at !== season.endsAt) found.expires_at = MEMBER_MESSAGES.expires(new Date(season.endsAt).toISOString());
  const [person] = text(next.person)
    ? await db
        .select({ id: divisionPeople.id })
        .from(divisionPeople)
        .where(and(eq(divisionPeople.id, String(next.person)), eq(divisionPeople.divisionId, division)))
    : [];
  if (!person) found.person = MEMBER_MESSAGES.person;
  const [owner] = await db.select({ programs: divisions.programsList }).from(divisions).where(eq(divisions.id, division));
  const offered = new Set((owner?.programs ?? []).map((p) => p.trim().toLowerCase()));
  const chosen = Array.isArray(next.programs) ? next.programs.filter((p): p is string => typeof p === "string") : [];
  const unknown = chosen.filter((p) => !offered.has(p.trim().toLowerCase()));
  if (unknown.length > 0) found.programs = MEMBER_MESSAGES.programs(unknown);
  return problems(found);
};

/** A corrected name or birth date may not make a person the same as another of the division's people. */
export const divisionPersonRule: WriteRule = async (db, id, next) => {
  const division = text(next.division);
  if (!division || !text(next.first_name) || !text(next.last_name)) return null;
  const key = personKey({
    firstName: String(next.first_name),
    lastName: String(next.last_name),
    birthDate: text(next.birth_date),
    email: text(next.email),
  });
  const [twin] = await db
    .select({ memberNumber: divisionPeople.memberNumber })
    .from(divisionPeople)
    .where(and(eq(divisionPeople.divisionId, division), eq(divisionPeople.personKey, key), ne(divisionPeople.id, id)))
    .limit(1);
  return twin ? problems({ last_name: MEMBER_MESSAGES.samePerson(twin.memberNumber) }) : null;
};

/** A rack ships only with a shipment of its own depot (decision 0068). */
export const gochipRackRule: WriteRule = async (db, _id, next) => {
  const depot = text(next.depot);
  const shipment = text(next.shipment);
  if (!depot || !shipment) return null;
  const [row] = await db
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.id, shipment), eq(shipments.depotId, depot)));
  return row ? null : problems({ shipment: GOCHIP_MESSAGES.otherDepot });
};

/** A chip's lot and rack are its depot's; a slot needs its rack and lies within it (decision 0068). */
export const gochipRule: WriteRule = async (db, _id, next) => {
  const depot = text(next.depot);
  const [lot, rack] = [text(next.lot), text(next.rack)];
  const slot = typeof next.slot === "number" ? next.slot : null;
  if (!depot) return null;
  if (slot !== null && !rack) return problems({ rack: GOCHIP_MESSAGES.slotNeedsRack });
  const found: Record<string, string> = {};
  if (lot) {
    const [row] = await db
      .select({ id: gochipLots.id })
      .from(gochipLots)
      .where(and(eq(gochipLots.id, lot), eq(gochipLots.depotId, depot)));
    if (!row) found.lot = GOCHIP_MESSAGES.otherDepot;
  }
  if (rack) {
    const [row] = await db
      .select({ slots: gochipRacks.slotCount })
      .from(gochipRacks)
      .where(and(eq(gochipRacks.id, rack), eq(gochipRacks.depotId, depot)));
    if (!row) found.rack = GOCHIP_MESSAGES.otherDepot;
    else if (slot !== null && slot > row.slots) found.slot = GOCHIP_MESSAGES.slotRange(row.slots);
  }
  return problems(found);
};
