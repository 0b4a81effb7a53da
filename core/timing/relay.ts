/**
 * Relays (timing.md section 3: is_relay, relay_member_count, team_field, team_order,
 * team_lap_time_display): racers of one team run legs one after another, and the team is timed from the
 * first leg's start to the last leg's finish.
 */
import type { FieldValue, Micros, RacerStatus } from "./model";
import { RACE_DEFAULTS, readFormNumber } from "./validation";

/**
 * How a leg's time is shown (team_lap_time_display):
 * - racer_at_lap_finish (default): the time of the racer who finished that leg, from their own start
 *   (or handover) to their finish: each leg stands alone.
 * - team_elapsed: the team's running time at that leg's finish, from the first leg's start.
 */
export const TEAM_LAP_TIME_DISPLAYS = ["racer_at_lap_finish", "team_elapsed"] as const;
export type TeamLapTimeDisplay = (typeof TEAM_LAP_TIME_DISPLAYS)[number];
export const DEFAULT_TEAM_LAP_TIME_DISPLAY: TeamLapTimeDisplay = RACE_DEFAULTS.teamLapTimeDisplay;
export const TEAM_LAP_TIME_DISPLAY_LABELS: Record<TeamLapTimeDisplay, string> = {
  racer_at_lap_finish: "Each racer's own leg time",
  team_elapsed: "The team's time at each handover",
};

export interface TeamFields {
  /** team_field: the racer field naming the team. */
  teamField: string;
  /** team_order: the racer field giving the leg number (1 first). */
  teamOrder: string;
}

/** A racer's team and leg from their fields: a blank team is none; a leg that is not a whole number from 1 is none. */
export function teamAndLegOf(fields: Readonly<Record<string, FieldValue>>, { teamField, teamOrder }: TeamFields): { team: string | null; leg: number | null } {
  const teamValue = fields[teamField];
  const team = teamValue === null || teamValue === undefined || typeof teamValue === "boolean" ? "" : String(teamValue).trim();
  const legValue = fields[teamOrder];
  const leg = typeof legValue === "number" || typeof legValue === "string" ? readFormNumber(legValue) : null;
  return { team: team === "" ? null : team, leg: leg !== null && Number.isInteger(leg) && leg >= 1 ? leg : null };
}

export interface RelayMember {
  racerId: string;
  /** null: not on a team, so left out of team results. */
  team: string | null;
  /** Leg number; null runs after the numbered legs, in input order. */
  leg: number | null;
  /** The member's own start (a recorded tag or start read); null takes over at the previous leg's finish. */
  start: Micros | null;
  finish: Micros | null;
  status: RacerStatus;
}

export interface LegResult {
  racerId: string;
  leg: number | null;
  /** The leg's start: the member's own, else the previous leg's finish. */
  start: Micros | null;
  /** The finish, only when the leg is finished. */
  finish: Micros | null;
  /** finish − start, when both are known. */
  time: Micros | null;
  status: RacerStatus;
}

export interface TeamResult {
  team: string;
  /** Every member, in leg order; those past memberCount are listed but not timed for the team. */
  legs: LegResult[];
  /** Finished legs among the first memberCount. */
  legsCompleted: number;
  /** Last leg's finish − first leg's start, when the team is finished. */
  time: Micros | null;
  status: RacerStatus;
  /** Finished teams with a time, 1 first; equal times share a rank. Others null. */
  rank: number | null;
}

const isLegFinished = (member: RelayMember): boolean => member.status === "finished" && member.finish !== null;

/** Legs in order; the index breaks ties so members on the same (or no) leg keep input order. */
function inLegOrder(members: readonly RelayMember[]): RelayMember[] {
  return members
    .map((member, index) => ({ member, index }))
    .sort((a, b) => (a.member.leg ?? Infinity) - (b.member.leg ?? Infinity) || a.index - b.index)
    .map(({ member }) => member);
}

function legsOf(members: readonly RelayMember[]): LegResult[] {
  const legs: LegResult[] = [];
  let handover: Micros | null = null;
  for (const member of members) {
    const start = member.start ?? handover;
    const finish = isLegFinished(member) ? member.finish : null;
    legs.push({
      racerId: member.racerId,
      leg: member.leg,
      start,
      finish,
      time: start !== null && finish !== null ? finish - start : null,
      status: member.status,
    });
    handover = finish;
  }
  return legs;
}

const hasStarted = (status: RacerStatus): boolean => status !== "notstarted" && status !== "dns";

/**
 * A team's status: dsq if any member is; finished when the first memberCount legs all are; dns (or not
 * started) when no leg has started; dnf when a member is dnf or dns after the team started, or when the
 * team is short of members and everyone it has is done (nobody can run the missing legs); else on course.
 */
function teamStatus(counted: readonly LegResult[], memberCount: number): RacerStatus {
  const statuses = counted.map((leg) => leg.status);
  if (statuses.includes("dsq")) return "dsq";
  const finishedLegs = counted.filter((leg) => leg.finish !== null).length;
  if (counted.length === memberCount && finishedLegs === memberCount) return "finished";
  if (!statuses.some(hasStarted)) return statuses.includes("dns") ? "dns" : "notstarted";
  if (statuses.includes("dnf") || statuses.includes("dns")) return "dnf";
  return counted.length < memberCount && finishedLegs === counted.length ? "dnf" : "oncourse";
}

/** Finished teams by time; then the rest by legs completed (more first), then earlier last handover; then dsq, then dns. */
function sortKeyOf(team: Omit<TeamResult, "rank">): number[] {
  if (team.status === "finished" && team.time !== null) return [0, team.time];
  if (team.status === "dsq") return [2];
  if (team.status === "dns") return [3];
  const lastHandover = team.legs.slice(0, team.legsCompleted).at(-1)?.finish ?? Number.MAX_SAFE_INTEGER;
  return [1, 0 - team.legsCompleted, lastHandover];
}

function compareNumbers(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * Team results in rank order. Each leg starts at the member's own start, else at the previous leg's
 * finish (a leg that did not finish hands over nothing). A team is finished only with memberCount legs
 * all finished; its time runs from the first leg's start to leg memberCount's finish.
 */
export function teamResults(members: readonly RelayMember[], { memberCount }: { memberCount: number }): TeamResult[] {
  if (!Number.isInteger(memberCount) || memberCount < 1) throw new RangeError(`memberCount must be a whole number from 1, got ${memberCount}`);
  const byTeam = new Map<string, RelayMember[]>();
  for (const member of members) {
    const team = member.team?.trim();
    if (!team) continue;
    const teamMembers = byTeam.get(team) ?? [];
    teamMembers.push(member);
    byTeam.set(team, teamMembers);
  }
  const teams = [...byTeam].map(([team, teamMembers]) => {
    const legs = legsOf(inLegOrder(teamMembers));
    const counted = legs.slice(0, memberCount);
    const status = teamStatus(counted, memberCount);
    const first = counted[0]?.start ?? null;
    const last = counted.at(-1)?.finish ?? null;
    const time = status === "finished" && first !== null && last !== null ? last - first : null;
    const legsCompleted = counted.filter((leg) => leg.finish !== null).length;
    return { team, legs, legsCompleted, time, status };
  });
  const sorted = teams
    .map((team) => ({ team, key: sortKeyOf(team) }))
    .sort((a, b) => compareNumbers(a.key, b.key) || (a.team.team < b.team.team ? -1 : a.team.team > b.team.team ? 1 : 0));
  let previousTime: Micros | null = null;
  let rank = 0;
  return sorted.map(({ team }, index) => {
    if (team.status !== "finished" || team.time === null) return { ...team, rank: null };
    if (team.time !== previousTime) rank = index + 1;
    previousTime = team.time;
    return { ...team, rank };
  });
}

/** Racers per team when relay_member_count is not set: the spec's biathlon relay default, for every relay. */
export const DEFAULT_RELAY_MEMBER_COUNT = 4;

/** One racer's result as a relay needs it (the results engine's row plus the team and leg fields). */
export interface RelayEntry {
  racerId: string;
  team: string | null;
  leg: number | null;
  bib: number | null;
  start: Micros | null;
  finish: Micros | null;
  /** The racer's read at the team_relay_transition_point, when the race names one. */
  handover: Micros | null;
  status: RacerStatus;
}

const orNever = (n: number | null): number => n ?? Number.MAX_SAFE_INTEGER;

/**
 * Racers' results as relay members. Within a team legs run by leg number, then bib (with no team_order,
 * bib order is leg order). The first leg starts at its racer's start; every later leg takes over at the
 * previous leg's handover, whatever start its racer was given (a relay racer is not on the gun).
 * A leg that hands over ends at the racer's read at the transition point when the race names one: a
 * racer who passed it has done their leg. The team's last leg (leg memberCount) ends at the finish.
 */
export function relayMembersOf(entries: readonly RelayEntry[], memberCount: number): RelayMember[] {
  const ordered = [...entries].sort((a, b) => orNever(a.leg) - orNever(b.leg) || orNever(a.bib) - orNever(b.bib));
  const legsSoFar = new Map<string, number>();
  return ordered.map((entry) => {
    const team = entry.team?.trim() || null;
    const position = team === null ? 0 : (legsSoFar.get(team) ?? 0) + 1;
    if (team !== null) legsSoFar.set(team, position);
    const handsOver = position < memberCount && entry.handover !== null && (entry.status === "oncourse" || entry.status === "finished");
    return {
      racerId: entry.racerId,
      team,
      leg: entry.leg,
      start: position === 1 ? entry.start : null,
      finish: handsOver ? entry.handover : entry.finish,
      status: handsOver ? "finished" : entry.status,
    };
  });
}
