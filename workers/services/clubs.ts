/**
 * Clubs that start on their own (issue 25, decision 0030): a signed-in user creates a club, becomes its
 * Organization Admin and gets a whitelabel site under the main host, all in one batch, so a club never
 * exists without its site or its administrator.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import * as z from "zod";
import { labelCandidates, siteLabelOf, siteLabelProblem, SITE_LABEL_MESSAGES } from "../../core/clubs/site-address";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { COUNTRIES } from "../../core/forms/countries";
import { findSport } from "../../core/timing/sports";
import { clubs, roles, sites, type Db } from "../../schema/d1";
import { selectByName } from "../../schema/d1/insert-select";

/** A founder may start this many clubs a day: enough for a federation's clubs, too few for spam sites. */
export const CLUBS_PER_DAY = 3;
const DAY_MS = 86_400_000;

export const CLUB_MESSAGES = {
  name: "Enter the club's name (at most 120 characters)",
  sport: "Choose a sport from the list",
  country: "Choose a country from the list",
  tooMany: `You can start at most ${CLUBS_PER_DAY} clubs a day. Try again tomorrow, or ask us to raise the limit.`,
  noLabel: "Choose an address for the club's site",
  stale: "This form was already sent. Reload the page to start another club.",
} as const;

export const newClubSchema = z.object({
  /** One per form shown: a resent or double-clicked form names the same club, which is then not made twice. */
  submission: z.uuid(),
  name: z.string().trim().min(1, CLUB_MESSAGES.name).max(120, CLUB_MESSAGES.name),
  sport: z.string().refine((name) => findSport(name) !== undefined, CLUB_MESSAGES.sport),
  country: z.string().refine((code) => COUNTRIES.some((c) => c.alpha2 === code), CLUB_MESSAGES.country),
  site_label: z
    .string()
    .trim()
    .toLowerCase()
    .transform((label) => label || null),
});
export type NewClub = z.output<typeof newClubSchema>;

export type CreateClubResult = { ok: true; clubId: string; siteId: string; hostname: string } | { ok: false; errors: Record<string, string> };

/** The hostname the site gets: the chosen label, else the name's, numbered past the ones already taken. */
async function freeHostname(db: Db, input: NewClub, mainHost: string): Promise<{ hostname: string } | { error: Record<string, string> }> {
  const chosen = input.site_label;
  const label = chosen ?? siteLabelOf(input.name);
  if (!label) return { error: { site_label: CLUB_MESSAGES.noLabel } };
  const problem = siteLabelProblem(label);
  if (problem) return { error: { site_label: problem } };
  const candidates = (chosen ? [label] : labelCandidates(label)).filter((l) => siteLabelProblem(l) === null).map((l) => `${l}.${mainHost}`);
  const taken = new Set((await db.select({ hostname: sites.hostname }).from(sites).where(inArray(sites.hostname, candidates))).map((r) => r.hostname));
  const free = candidates.find((h) => !taken.has(h));
  return free ? { hostname: free } : { error: { site_label: SITE_LABEL_MESSAGES.taken } };
}

/**
 * Creates the club, its site and the founder's Organization Admin role in one batch. The site's insert is
 * guarded by the founder's count of clubs started in the last day, counted in the same statement; when the
 * guard holds it back, the club's reference to the site fails and the batch writes nothing.
 */
export async function createClub(db: Db, founder: { userId: string }, input: NewClub, mainHost: string, now: number): Promise<CreateClubResult> {
  const address = await freeHostname(db, input, mainHost);
  if ("error" in address) return { ok: false, errors: address.error };
  const siteId = crypto.randomUUID();
  const clubId = input.submission;
  const config = { name: input.name };
  const club = { name: input.name, sport: input.sport, country: input.country, site_id: siteId };
  try {
    await db.batch([
      db.insert(sites).select(
        selectByName(
          sites,
          {
            id: siteId,
            createdAt: now,
            fieldMtimes: initialMtimes({ hostname: address.hostname, config }, now),
            hostname: address.hostname,
            config,
            version: 0,
          },
          sql`WHERE (SELECT COUNT(*) FROM roles WHERE user_id = ${founder.userId} AND type = 'org_admin' AND created_at > ${now - DAY_MS}
                 AND json_extract(config, '$.founded') = 1) < ${CLUBS_PER_DAY}`,
        ),
      ),
      db
        .insert(clubs)
        .values({ id: clubId, createdAt: now, name: input.name, sport: input.sport, country: input.country, siteId, fieldMtimes: initialMtimes(club, now) }),
      db.insert(roles).values({
        id: crypto.randomUUID(),
        createdAt: now,
        userId: founder.userId,
        type: "org_admin",
        clubId,
        siteId,
        config: { founded: 1 },
        fieldMtimes: {},
      }),
    ]);
  } catch (error) {
    const text = String((error as { cause?: unknown }).cause ?? error);
    if (text.includes("clubs.id")) return replayOf(db, founder, clubId);
    // The same form sent twice at once picks the same free address, so the second may meet the first's site
    // before its club: that is a replay too when this founder's club with this form's id now exists.
    if (text.includes("whitelabel_sites.hostname")) {
      const replay = await replayOf(db, founder, clubId);
      if (replay.ok) return replay;
    }
    if (text.includes("FOREIGN KEY")) return { ok: false, errors: { form: CLUB_MESSAGES.tooMany } };
    if (text.includes("whitelabel_sites.hostname")) return { ok: false, errors: { site_label: SITE_LABEL_MESSAGES.taken } };
    throw error;
  }
  return { ok: true, clubId, siteId, hostname: address.hostname };
}

/** The same form sent again: the club it made, if this founder made it; another's id is refused as a stale form. */
async function replayOf(db: Db, founder: { userId: string }, clubId: string): Promise<CreateClubResult> {
  const [made] = await db
    .select({ siteId: clubs.siteId, hostname: sites.hostname })
    .from(clubs)
    .innerJoin(roles, and(eq(roles.clubId, clubs.id), eq(roles.userId, founder.userId), eq(roles.type, "org_admin")))
    .innerJoin(sites, eq(sites.id, clubs.siteId))
    .where(eq(clubs.id, clubId))
    .limit(1);
  return made?.siteId ? { ok: true, clubId, siteId: made.siteId, hostname: made.hostname } : { ok: false, errors: { form: CLUB_MESSAGES.stale } };
}
