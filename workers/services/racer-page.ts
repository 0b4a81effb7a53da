/**
 * One racer's public page: their splits, places and gaps from the RaceRoom (durable/race/racer-detail.ts),
 * under the results page's rules: the race must be one this host shows (the route's guard), and the racer
 * must be in a result format the caller may see (race-results.ts), or there is no page.
 */
import type { RacerDetail } from "../../durable/race-room";
import type { Db } from "../../schema/d1";
import type { ValidSession } from "../auth/sessions";
import type { RaceCatalogue } from "./race-access";
import { visibleFormats } from "./race-results";

export type { RacerDetail };

/**
 * With `formatId`, that format only (404 when the caller may not see it); without, the public formats in
 * their order, then, for race staff, the rest: unlisted formats are reached by their link only.
 */
export async function loadRacerPage(
  env: Env,
  db: Db,
  session: ValidSession | null,
  race: RaceCatalogue,
  racerId: string,
  formatId: string | null,
): Promise<RacerDetail | null> {
  const { room, staff, visible } = await visibleFormats(env, db, session, race);
  const candidates = formatId
    ? visible.filter((f) => f.id === formatId)
    : [...visible.filter((f) => f.data.is_public), ...(staff ? visible.filter((f) => !f.data.is_public) : [])];
  if (candidates.length === 0) return null;
  return room.racerDetail(
    racerId,
    candidates.map((f) => f.id),
  );
}
