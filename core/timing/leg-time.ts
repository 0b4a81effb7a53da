/**
 * A relay leg's shown time, apart from relay.ts so a page that only shows teams (the results page) does not
 * load the relay rules and race defaults with it.
 */
import type { Micros } from "./model";
import type { LegResult, TeamLapTimeDisplay } from "./relay";

/** The time shown for a leg under team_lap_time_display; `teamStart` is the first leg's start. */
export function legShownTime(leg: LegResult, teamStart: Micros | null, display: TeamLapTimeDisplay): Micros | null {
  if (display === "racer_at_lap_finish") return leg.time;
  return leg.finish !== null && teamStart !== null ? leg.finish - teamStart : null;
}
