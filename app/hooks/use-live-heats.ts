import { useEffect, useState } from "react";
import type { HeatsView } from "../../schema/wire/race-socket";
import { keepRaceSocket } from "./race-socket";
import type { LiveState } from "./use-live-results";

/**
 * Keeps a race's sprint heats current: the room sends the whole bracket on connect and after every heat
 * change; an older view than the one held is ignored.
 */
export function useLiveHeats(raceId: string, initial: HeatsView): { live: LiveState; heats: HeatsView } {
  const [heats, setHeats] = useState(initial);
  const [live, setLive] = useState<LiveState>("connecting");

  // A newer server render (after a timer's own post) replaces what the socket had.
  useEffect(() => setHeats((current) => (initial.version >= current.version ? initial : current)), [initial]);

  useEffect(
    () =>
      keepRaceSocket(
        raceId,
        () => "heats=1",
        (message) => {
          if (message.type === "heats") setHeats((current) => (message.heats.version >= current.version ? message.heats : current));
        },
        setLive,
      ),
    [raceId],
  );

  return { live, heats };
}
