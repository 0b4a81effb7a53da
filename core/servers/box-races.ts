/** Which of a club's races a serverbox is offered to time (ours: the spec is silent; decision 0055). */

/** A race that started this long ago is still offered: a box may go out after the start and sync late. */
export const RECENT_RACE_MS = 24 * 60 * 60 * 1000;
/** At most this many races in one answer, soonest first. */
export const MAX_BOX_RACES = 100;

/** Upcoming for a box: not started yet, started within the last day, or not ended yet. */
export function isUpcomingForBox(race: { startTime: number; endTime: number | null }, now: number): boolean {
  return race.startTime >= now - RECENT_RACE_MS || (race.endTime !== null && race.endTime >= now);
}
