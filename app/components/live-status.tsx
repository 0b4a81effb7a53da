import { useEffect, useState } from "react";
import { raceServerMessageSchema } from "../../schema/wire/race-socket";

type LiveState = "connecting" | "live" | "offline";

const RECONNECT_DELAY_MS = 2_000;
const labels: Record<LiveState, string> = {
  connecting: "Connecting to live results…",
  live: "Live: results update as they come in",
  offline: "Connection lost. Reconnecting…",
};

/** Keeps a socket open to the race's room and says plainly whether the page is live. */
export function LiveStatus({ raceId }: { raceId: string }) {
  const [state, setState] = useState<LiveState>("connecting");
  useEffect(() => {
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const connect = () => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${location.host}/timing-api/races/${raceId}/socket`);
      socket.addEventListener("message", (event) => {
        const parsed = raceServerMessageSchema.safeParse(JSON.parse(String(event.data)));
        if (parsed.success && parsed.data.type === "hello") setState("live");
      });
      socket.addEventListener("close", () => {
        if (stopped) return;
        setState("offline");
        retry = setTimeout(connect, RECONNECT_DELAY_MS);
      });
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      socket?.close(1000, "page closed");
    };
  }, [raceId]);
  return (
    <p className={`live-status live-status-${state}`} role="status" data-live-state={state}>
      <span className="live-dot" aria-hidden="true" />
      {labels[state]}
      <noscript> (live updates need JavaScript; reload the page for the latest results)</noscript>
    </p>
  );
}
