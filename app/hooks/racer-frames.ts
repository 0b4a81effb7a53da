/**
 * What a race socket frame means for one racer's page. The page holds no rows (a 27,000-racer format must not
 * reach it): it reloads its own small loader when a frame touches the racer, and, less often, when racers of
 * its group move (their places at each point change the racer's). Decision 0035.
 */
import type { RaceServerMessage } from "../../schema/wire/race-socket";
import type { FrameOutcome } from "./race-socket";

/** Other racers of the group moving refresh the page at most this often; the racer's own row at once. */
export const GROUP_REFRESH_MS = 10_000;

export type Refresh = "none" | "now" | "soon";

export interface RacerFrameStep {
  /** The format version the page now follows (the socket resumes from it). */
  held: string;
  refresh: Refresh;
  outcome: FrameOutcome;
}

export interface FollowedRacer {
  formatId: string;
  racerId: string;
  groupId: string;
}

/**
 * Versions only move forward. A rows frame that does not follow the version held is no gap for this page:
 * the loader reads the racer afresh, so the page takes the frame's version rather than asking for a snapshot.
 */
export function followRacerFrame(held: string, followed: FollowedRacer, message: RaceServerMessage): RacerFrameStep {
  const stay: RacerFrameStep = { held, refresh: "none", outcome: "ok" };
  switch (message.type) {
    case "hello":
      if (message.version === undefined) return stay;
      if (message.version === held) return { held, refresh: "none", outcome: "current" };
      // The socket is paged (`window=1`): nothing more comes for the versions missed, so the page reloads now.
      return { held: newer(message.version, held), refresh: "now", outcome: "current" };
    case "refresh":
      if (message.formatId !== followed.formatId || message.version === held) return stay;
      return { held: newer(message.version, held), refresh: "now", outcome: "current" };
    case "snapshot":
      if (message.snapshot.formatId !== followed.formatId) return stay;
      return { held: newer(message.snapshot.version, held), refresh: "now", outcome: "current" };
    case "rows": {
      if (message.formatId !== followed.formatId || !isAfter(message.version, held)) return stay;
      const mine = message.rows.some((row) => row.racerId === followed.racerId);
      const group = mine || message.rows.some((row) => row.groups.includes(followed.groupId));
      return { held: message.version, refresh: mine ? "now" : group ? "soon" : "none", outcome: "current" };
    }
    default:
      return stay;
  }
}

/** The later of two versions the server numbered (a loader's and the socket's); `b` when either is not a number. */
export function newer(a: string, b: string): string {
  return isAfter(a, b) ? a : b;
}

function isAfter(a: string, b: string): boolean {
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return a !== b;
  return Number(a) > Number(b);
}
