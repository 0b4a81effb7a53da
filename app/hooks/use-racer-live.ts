import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { keepRaceSocket, type LiveState } from "./race-socket";
import { followRacerFrame, GROUP_REFRESH_MS, newer, type FollowedRacer } from "./racer-frames";

/**
 * Keeps a racer's page current: follows the format on the race socket and reloads the page's loader when a
 * frame touches the racer (at once) or their group (at most every GROUP_REFRESH_MS). Decision 0035.
 */
export function useRacerLive(raceId: string, followed: FollowedRacer, loaderVersion: string): LiveState {
  const [live, setLive] = useState<LiveState>("connecting");
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const held = useRef(loaderVersion);
  held.current = newer(loaderVersion, held.current);
  const { formatId, racerId, groupId } = followed;

  useEffect(() => {
    let lastRefresh = 0;
    let soon: ReturnType<typeof setTimeout> | null = null;
    const refreshNow = () => {
      if (soon !== null) clearTimeout(soon);
      soon = null;
      lastRefresh = Date.now();
      revalidate.current();
    };
    const stop = keepRaceSocket(raceId, {
      // Paged: the racer's page reloads its own data, so the socket need never carry the whole format.
      query: () => new URLSearchParams({ format: formatId, since: held.current, window: "1" }).toString(),
      onFrame: (message) => {
        const step = followRacerFrame(held.current, { formatId, racerId, groupId }, message);
        held.current = step.held;
        if (step.refresh === "now") refreshNow();
        else if (step.refresh === "soon" && soon === null) soon = setTimeout(refreshNow, Math.max(0, lastRefresh + GROUP_REFRESH_MS - Date.now()));
        return step.outcome;
      },
      setLive,
    });
    return () => {
      if (soon !== null) clearTimeout(soon);
      stop();
    };
  }, [raceId, formatId, racerId, groupId]);

  return live;
}
