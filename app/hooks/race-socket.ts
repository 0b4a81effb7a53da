import { raceServerMessageSchema, type RaceServerMessage } from "../../schema/wire/race-socket";
import type { LiveState } from "./use-live-results";

/** Reconnects back off to this, so a venue's flaky network is retried without hammering it. */
const MAX_RECONNECT_DELAY_MS = 15_000;
const FIRST_RECONNECT_DELAY_MS = 1_000;

/**
 * Keeps a race socket open: `query` is read at each (re)connect, frames are checked before `onFrame` sees
 * them, `hello` marks the page live, and a drop retries with back-off. Returns the function that stops it.
 */
export function keepRaceSocket(raceId: string, query: () => string, onFrame: (message: RaceServerMessage, socket: WebSocket) => void, setLive: (state: LiveState) => void): () => void {
  let socket: WebSocket | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let delay = FIRST_RECONNECT_DELAY_MS;
  let stopped = false;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const current = new WebSocket(`${scheme}://${location.host}/timing-api/races/${raceId}/socket?${query()}`);
    socket = current;
    current.addEventListener("message", (event) => {
      let json: unknown;
      try {
        json = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const parsed = raceServerMessageSchema.safeParse(json);
      if (!parsed.success) return;
      if (parsed.data.type === "hello") {
        setLive("live");
        delay = FIRST_RECONNECT_DELAY_MS;
      }
      onFrame(parsed.data, current);
    });
    current.addEventListener("close", () => {
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
}
