import { useEffect, useRef, useState } from "react";
import type { FormatSnapshot } from "../../schema/wire/race-socket";
import { applyRows, stateFromSnapshot, type ResultsState } from "../results/results-state";
import { keepRaceSocket } from "./race-socket";

export type LiveState = "connecting" | "live" | "offline";

/**
 * Keeps a results format current: opens the race socket with the version the page rendered, applies
 * pushed rows, and reconnects after a drop (the room then sends a snapshot if anything was missed).
 */
export function useLiveResults(raceId: string, initial: FormatSnapshot): { live: LiveState; results: ResultsState } {
  const [results, setResults] = useState<ResultsState>(() => stateFromSnapshot(initial));
  const [live, setLive] = useState<LiveState>("connecting");
  const version = useRef(initial.version);

  useEffect(
    () =>
      keepRaceSocket(
        raceId,
        () => new URLSearchParams({ format: initial.formatId, since: version.current }).toString(),
        (message, socket) => {
          if (message.type === "snapshot" && message.snapshot.formatId === initial.formatId) {
            version.current = message.snapshot.version;
            setResults(stateFromSnapshot(message.snapshot));
          } else if (message.type === "rows" && message.formatId === initial.formatId) {
            setResults((current) => {
              const next = applyRows(current, message.from, message.version, message.rows);
              if (next) {
                version.current = next.snapshot.version;
                return next;
              }
              // A push was missed: reconnect with the version we hold and the room sends a snapshot.
              socket.close(4000, "missed a push");
              return current;
            });
          }
        },
        setLive,
      ),
    [raceId, initial.formatId],
  );

  return { live, results };
}
