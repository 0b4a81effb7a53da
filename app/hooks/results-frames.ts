/**
 * What a race socket frame does to a results page's copy of one format, decided on the latest copy held
 * outside React (a ref), never inside a state updater: updaters may run late or twice, and a decision to
 * reconnect must not depend on when React renders.
 */
import { applyRowChange } from "../../schema/wire/race-row-patch";
import type { RaceServerMessage, ResultRow, RowChange } from "../../schema/wire/race-socket";
import { applyRows, stateFromSnapshot, type ResultsState } from "../results/results-state";
import type { FrameOutcome } from "./race-socket";
import { notAfter } from "./versions";

export interface FollowedResults {
  results: ResultsState;
  /** The version a hello named when it was not the one held: the page is behind until it holds it. */
  target: string | null;
}

export interface FollowStep {
  /** The same object when the frame changed nothing, so a page can skip the render. */
  followed: FollowedResults;
  outcome: FrameOutcome;
}

/**
 * Versions chain by equality (`from` must be the version held). The server numbers them, so a frame whose
 * version is not above the one held is one the page already has (it came inside a newer snapshot).
 */
export function followResultsFrame(followed: FollowedResults, formatId: string, message: RaceServerMessage): FollowStep {
  const held = followed.results.snapshot.version;
  const unchanged: FollowStep = { followed, outcome: "ok" };
  switch (message.type) {
    case "hello": {
      // A hello without a version is a socket that follows no format.
      if (message.version === undefined) return unchanged;
      if (message.version === held) return { followed: followed.target === null ? followed : { ...followed, target: null }, outcome: "current" };
      return { followed: { ...followed, target: message.version }, outcome: "behind" };
    }
    case "snapshot":
      if (message.snapshot.formatId !== formatId) return unchanged;
      return { followed: { results: stateFromSnapshot(message.snapshot), target: null }, outcome: "current" };
    case "rows":
    case "patch": {
      if (message.formatId !== formatId) return unchanged;
      // A frame that ends at or before the version held was already applied (or came in a snapshot).
      if (message.version === held || notAfter(message.version, held)) return unchanged;
      const results =
        message.type === "rows"
          ? applyRows(followed.results, message.from, message.version, message.rows)
          : applyPatch(followed.results, message.from, message.version, message.rows, message.changes);
      if (!results) return { followed, outcome: "resync" };
      const reached = followed.target === null || followed.target === message.version;
      return { followed: { results, target: reached ? null : followed.target }, outcome: reached ? "current" : "behind" };
    }
    default:
      return unchanged;
  }
}

/**
 * Applies a patch frame: whole rows, and changes to rows held. Null, as for rows, when the frame does not follow
 * this copy's version or changes a racer this copy does not hold: the page fetches a snapshot instead.
 */
// Here, not in results-state.ts: only pages holding the whole format take patches, so the paged page loads none of it.
export function applyPatch(state: ResultsState, from: string, version: string, rows: readonly ResultRow[], changes: readonly RowChange[]): ResultsState | null {
  const whole = new Map(state.rows);
  for (const row of rows) whole.set(row.racerId, row);
  const changed: ResultRow[] = [...rows];
  let byHandle: Map<number, ResultRow> | null = null;
  for (const change of changes) {
    if (change.h !== undefined && !byHandle) byHandle = new Map([...whole.values()].filter((row) => row.h !== undefined).map((row) => [row.h!, row]));
    const held = change.h !== undefined ? byHandle!.get(change.h) : change.racerId !== undefined ? whole.get(change.racerId) : undefined;
    if (!held) return null;
    changed.push(applyRowChange(held, change));
  }
  return applyRows(state, from, version, changed);
}
