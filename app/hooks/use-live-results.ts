import { useEffect, useRef, useState } from "react";
import { raceServerMessageSchema, type FormatSnapshot } from "../../schema/wire/race-socket";
import { applyRows, stateFromSnapshot, type ResultsState } from "../results/results-state";

export type LiveState = "connecting" | "live" | "offline";

/** Reconnects back off to this, so a venue's flaky network is retried without hammering it. */
const MAX_RECONNECT_DELAY_MS = 15_000;
const FIRST_RECONNECT_DELAY_MS = 1_000;

/**
 * Keeps a results format current: opens the race socket with the version the page rendered, applies
 * pushed rows, and reconnects after a drop (the room then sends a snapshot if anything was missed).
 */
export function useLiveResults(raceId: string, initial: FormatSnapshot): { live: LiveState; results: ResultsState } {
  const [results, setResults] = useState<ResultsState>(() => stateFromSnapshot(initial));
  const [live, setLive] = useState<LiveState>("connecting");
  const version = useRef(initial.version);

  useEffect(() => {
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = FIRST_RECONNECT_DELAY_MS;
    let stopped = false;
    const connect = () => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const query = new URLSearchParams({ format: initial.formatId, since: version.current });
      socket = new WebSocket(`${scheme}://${location.host}/timing-api/races/${raceId}/socket?${query}`);
      socket.addEventListener("message", (event) => {
        let json: unknown;
        try {
          json = JSON.parse(String(event.data));
        } catch {
          return;
        }
        const parsed = raceServerMessageSchema.safeParse(json);
        if (!parsed.success) return;
        const message = parsed.data;
        if (message.type === "hello") {
          setLive("live");
          delay = FIRST_RECONNECT_DELAY_MS;
        } else if (message.type === "snapshot" && message.snapshot.formatId === initial.formatId) {
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
            socket?.close(4000, "missed a push");
            return current;
          });
        }
      });
      socket.addEventListener("close", () => {
        if (stopped) return;
        setLive("offline");
        retry = setTimeout(connect, delay);
        delay = Math.min(delay * 2, MAX_RECONNECT_DELAY_MS);
      });
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      socket?.close(1000, "page closed");
    };
  }, [raceId, initial.formatId]);

  return { live, results };
}
