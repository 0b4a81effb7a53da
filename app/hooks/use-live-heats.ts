import { useCallback, useEffect, useRef, useState } from "react";
import type { HeatsView } from "../../schema/wire/race-socket";
import { HEATS_FRAMES } from "../../schema/wire/race-socket-read-heats";
import { keepRaceSocket, type LiveState } from "./race-socket";

/**
 * Keeps a race's sprint heats current: the room sends the whole bracket on connect and after every heat
 * change; an older view than the one held is ignored.
 */
export function useLiveHeats(raceId: string, initial: HeatsView): { live: LiveState; heats: HeatsView } {
  const [heats, setHeats] = useState(initial);
  const [live, setLive] = useState<LiveState>("connecting");
  // The latest view, compared outside any state updater (see use-live-results.ts).
  const latest = useRef(initial);
  const show = useCallback((next: HeatsView) => {
    if (next.version < latest.current.version) return;
    latest.current = next;
    setHeats(next);
  }, []);

  // A newer server render (after a timer's own post) replaces what the socket had.
  useEffect(() => show(initial), [initial, show]);

  useEffect(
    () =>
      keepRaceSocket(raceId, {
        query: () => "heats=1",
        frames: HEATS_FRAMES,
        onFrame: (message) => {
          if (message.type !== "heats") return "ok";
          show(message.heats);
          return "current";
        },
        setLive,
      }),
    [raceId, show],
  );

  return { live, heats };
}
