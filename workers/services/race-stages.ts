/**
 * Multistage races (timing.md sections 3 and 9): a stage names the stage before it (prev_race), and counts
 * the stages before it (prev_stages_count) by walking that chain. Stages are races of one club.
 */
import { and, asc, eq, ne } from "drizzle-orm";
import { stageStepProblem } from "../../core/timing/multistage";
import { races, type Db } from "../../schema/d1";
import { roomStub, type RaceCatalogue } from "./race-access";

export const STAGE_NOT_IN_CLUB = "Choose a race of this club";

/** The club's other races, earliest first: the stages this race may follow. */
export async function stageChoices(db: Db, race: Pick<RaceCatalogue, "id" | "clubId">): Promise<{ id: string; name: string; startTime: number }[]> {
  return db
    .select({ id: races.id, name: races.name, startTime: races.startTime })
    .from(races)
    .where(and(eq(races.clubId, race.clubId), ne(races.id, race.id)))
    .orderBy(asc(races.startTime))
    .limit(500);
}

/**
 * How many stages come before this race when it follows `prevRaceId` (0 for none): each stage back is read
 * from its own RaceRoom. A chain that comes back to this race, or leaves the club, is refused.
 */
export async function stagesBefore(
  env: Env,
  db: Db,
  race: Pick<RaceCatalogue, "id" | "clubId">,
  prevRaceId: string | null,
): Promise<{ ok: true; count: number } | { ok: false; error: string }> {
  const chain = [race.id];
  for (let previous = prevRaceId; previous !== null; ) {
    const problem = stageStepProblem(chain, previous);
    if (problem) return { ok: false, error: problem };
    chain.push(previous);
    const [row] = await db.select({ clubId: races.clubId }).from(races).where(eq(races.id, previous)).limit(1);
    if (!row || row.clubId !== race.clubId) return { ok: false, error: STAGE_NOT_IN_CLUB };
    previous = (await roomStub(env, previous).settings())?.prev_race ?? null;
  }
  return { ok: true, count: chain.length - 1 };
}
