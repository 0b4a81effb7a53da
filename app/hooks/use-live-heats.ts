import { useEffect, useState } from "react";
import { raceServerMessageSchema, type HeatsView } from "../../schema/wire/race-socket";
import type { LiveState } from "./use-live-results";

const MAX_RECONNECT_DELAY_MS = 15_000;
const FIRST_RECONNECT_DELAY_MS = 1_000;

/**
 * Keeps a race's sprint heats current: the room sends the whole bracket on connect and after every heat
 * change; an older view than the one held is ignored. Reconnects with back-off after a drop.
 */
export function useLiveHeats(raceId: string, initial: HeatsView): { live: LiveState; heats: HeatsView } {
  const [heats, setHeats] = useState(initial);
  const [live, setLive] = useState<LiveState>("connecting");

  // A newer server render (after a timer's own post) replaces what the socket had.
  useEffect(() => setHeats((current) => (initial.version >= current.version ? initial : current)), [initial]);

  useEffect(() => {
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = FIRST_RECONNECT_DELAY_MS;
    let stopped = false;
    const connect = () => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${location.host}/timing-api/races/${raceId}/socket?heats=1`);
      socket.addEventListener("message", (event) => {
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
        } else if (parsed.data.type === "heats") {
          const next = parsed.data.heats;
          setHeats((current) => (next.version >= current.version ? next : current));
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
  }, [raceId]);

  return { live, heats };
}
