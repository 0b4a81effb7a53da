import { useEffect, useRef, useState } from "react";
import type { FormatSnapshot } from "../../schema/wire/race-socket";
import { stateFromSnapshot, type ResultsState } from "../results/results-state";
import { SNAPSHOT_FRAMES } from "../../schema/wire/race-socket-read-snapshot";
import { keepRaceSocket, type LiveState } from "./race-socket";
import { followResultsFrame, type FollowedResults } from "./results-frames";

/**
 * Keeps a results format current: opens the race socket with the version the page holds, applies pushed
 * rows, and reconnects with that version when a push was missed or the connection dropped (the room then
 * sends nothing, the missing rows, or a snapshot).
 */
export function useLiveResults(raceId: string, initial: FormatSnapshot): { live: LiveState; results: ResultsState } {
  const [results, setResults] = useState<ResultsState>(() => stateFromSnapshot(initial));
  const [live, setLive] = useState<LiveState>("connecting");
  // The latest copy, read and written only by the socket's handlers: React state mirrors it for rendering,
  // so `since` and every decision see the frame before, not the last render.
  const followed = useRef<FollowedResults>({ results, target: null });

  useEffect(
    () =>
      keepRaceSocket(raceId, {
        // The page holds every row, so it takes changes to them (`patch`) rather than whole rows again.
        query: () => new URLSearchParams({ format: initial.formatId, since: followed.current.results.snapshot.version, patch: "1" }).toString(),
        frames: SNAPSHOT_FRAMES,
        onFrame: (message) => {
          const step = followResultsFrame(followed.current, initial.formatId, message);
          if (step.followed.results !== followed.current.results) setResults(step.followed.results);
          followed.current = step.followed;
          return step.outcome;
        },
        setLive,
      }),
    [raceId, initial.formatId],
  );

  return { live, results };
}
