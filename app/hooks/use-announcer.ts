import { useEffect, useRef, useState } from "react";
import type { AnnouncerView } from "../../schema/wire/announcer-view";
import { backoffDelay } from "./backoff";
import { keepRaceSocket, type LiveState } from "./race-socket";

/** A burst of frames (a bunch crossing the line) is one fetch: the first frame waits this long for the rest. */
export const ANNOUNCER_GATHER_MS = 150;
/** Fetched this often anyway: racers leave the precall list as time passes, with no crossing to say so. */
export const ANNOUNCER_REFRESH_MS = 15_000;
const FETCH_TIMEOUT_MS = 10_000;

/**
 * Keeps the announcer screen's view current (decision 0045): the race socket (`announcer=1`) says when the
 * view changed and the view is fetched again as JSON; every hello (a first connection or a reconnect after a
 * drop or a server restart) fetches it too, so nothing said while the socket was down is missed. A failed
 * fetch keeps the view shown and tries again with back-off. `clock` is the room's time now, in µs, ticking.
 */
export function useAnnouncer(raceId: string, initial: AnnouncerView): { live: LiveState; view: AnnouncerView; clock: number } {
  const [view, setView] = useState(initial);
  const [live, setLive] = useState<LiveState>("connecting");
  // The room's clock minus this browser's, so countdowns follow the room whatever the tablet's clock says.
  const offset = useRef(initial.now - Date.now() * 1000);
  const [clock, setClock] = useState(initial.now);

  const formatId = initial.formatId;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let inFlight = false;
    let again = false;
    let failures = 0;
    const load = async () => {
      timer = null;
      inFlight = true;
      try {
        const response = await fetch(`/races/${raceId}/announcer.json?format=${encodeURIComponent(formatId)}`, {
          headers: { Accept: "application/json" },
          signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        });
        if (!response.ok) throw new Error(`announcer view: ${response.status}`);
        const fresh = readView(await response.json());
        if (stopped) return;
        failures = 0;
        offset.current = fresh.now - Date.now() * 1000;
        setView(fresh);
      } catch (error) {
        if (stopped) return;
        console.error("announcer view:", error);
        failures += 1;
        again = true;
      } finally {
        inFlight = false;
        if (!stopped && again) {
          again = false;
          schedule(failures > 0 ? backoffDelay(failures, Math.random) : ANNOUNCER_GATHER_MS);
        }
      }
    };
    const schedule = (wait = ANNOUNCER_GATHER_MS) => {
      if (inFlight) {
        again = true;
        return;
      }
      if (timer !== null) return;
      timer = setTimeout(() => void load(), wait);
    };
    const stop = keepRaceSocket(raceId, {
      query: () => "announcer=1",
      onFrame: (message) => {
        if (message.type === "hello" || message.type === "announcer") schedule();
        return "ok";
      },
      setLive,
    });
    const refresh = setInterval(() => schedule(0), ANNOUNCER_REFRESH_MS);
    const tick = setInterval(() => setClock(Date.now() * 1000 + offset.current), 1_000);
    return () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      clearInterval(refresh);
      clearInterval(tick);
      stop();
    };
  }, [raceId, formatId]);

  return { live, view, clock };
}

/** The JSON is our own server's answer to our own request; checked for the shape the screen relies on, not trusted blind. */
function readView(value: unknown): AnnouncerView {
  const view = value as AnnouncerView;
  if (typeof view?.now !== "number" || !Array.isArray(view.precall) || !Array.isArray(view.latest) || !Array.isArray(view.leaders)) {
    throw new Error("announcer view: not a view");
  }
  return view;
}
