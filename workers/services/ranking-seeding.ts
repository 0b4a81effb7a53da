/**
 * Seeding start groups by ranking points (decision 0054): when a group to seed uses the "by ranking points"
 * seed function, the race's ranking scheme (a scheme of the race's club) gives each racer its points in force,
 * matched by the scheme's identity rule, and the RaceRoom seeds with them and writes them on the racers.
 */
import { rankingIdentity } from "../../core/rankings/identity";
import { metaStartGroupFor, seedFunctionFor } from "../../core/timing/seeding";
import type { StoredDocument } from "../../schema/race/documents";
import { birthYearOf } from "../../schema/race/racer";
import type { Db } from "../../schema/d1";
import { racerDisplayName } from "../../core/timing/racer-name";
import { findScheme, schemesOfClub, seedingPoints } from "./ranking-lists";
import type { RaceCatalogue, roomOf } from "./race-access";
import { everyRacer } from "./race-racers";

type Room = Awaited<ReturnType<typeof roomOf>>;

export const RANKING_SEED_WORDS = {
  noScheme: "Choose the race's ranking scheme before seeding by ranking points",
  otherClub: "Choose a ranking scheme of this club",
} as const;

/** The club's schemes as choices for the race's ranking scheme select. */
export async function schemeChoices(db: Db, clubId: string): Promise<{ value: string; label: string }[]> {
  return (await schemesOfClub(db, clubId)).map((s) => ({ value: s.id, label: s.name }));
}

/** null when the id is none or a scheme of the club; else why it is refused. */
export async function schemeProblem(db: Db, clubId: string, id: string | null): Promise<string | null> {
  return id === null || (await findScheme(db, clubId, id)) ? null : RANKING_SEED_WORDS.otherClub;
}

/** Seeds one start group (every group when null), reading ranking points only when a group seeds by them. */
export async function seedWithRankings(env: Env, db: Db, race: Pick<RaceCatalogue, "clubId">, room: Room, startGroupId: string | null) {
  const [settings, documents] = await Promise.all([room.settings(), room.documents("StartGroup")]);
  const groups = documents as unknown as StoredDocument<"StartGroup">[];
  const targets = startGroupId ? groups.filter((g) => g.id === startGroupId) : groups;
  const byPoints =
    settings !== null &&
    targets.some((g) => seedFunctionFor(g.data, metaStartGroupFor(g.data.metagroup_id, settings.meta_startgroups_list), settings) === "ranking_points");
  if (!byPoints) return room.seed(startGroupId);
  const scheme = await findScheme(db, race.clubId, settings.ranking_scheme_id);
  if (!scheme) return { ok: false as const, errors: { ranking_scheme_id: RANKING_SEED_WORDS.noScheme } };
  const [{ points, higherFirst }, racers] = await Promise.all([seedingPoints(env, db, scheme), everyRacer(room)]);
  const rankingPoints: Record<string, number> = {};
  for (const r of racers) {
    const d = r.data;
    const name = racerDisplayName({ firstName: d.first_name, lastName: d.last_name, fullname: d.fullname }, false);
    const found = points.get(rankingIdentity({ licence: d.ccc_licence || d.licence, person: d.person, name, birthYear: birthYearOf(d), club: d.club }));
    if (found !== undefined) rankingPoints[r.id] = found;
  }
  return room.seed(startGroupId, { points: rankingPoints, higherFirst });
}
