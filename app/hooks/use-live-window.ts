import { useEffect, useRef, useState } from "react";
import type { RaceServerMessage } from "../../schema/wire/race-socket";
import { windowSearch, type ResultsWindow } from "../../schema/wire/results-window";
import { backoffDelay, jitterDelay } from "./backoff";
import { keepRaceSocket, type LiveState } from "./race-socket";
import type { ShownLiveState } from "../components/live-status";
import { followWindowFrame, type Refetch } from "./window-frames";
import { notAfter } from "./versions";
import { windowMessageOf } from "../../schema/wire/window-filter";

/**
 * A page moved by pushed rows is fetched after REFETCH_GAP_MS plus up to REFETCH_SPREAD_MS: rows on the page
 * change at once, places catch up within about two seconds, and a crowd on one page asks spread out and for
 * few versions, which the edge then answers from its cache (results.json).
 */
export const REFETCH_GAP_MS = 1_000;
export const REFETCH_SPREAD_MS = 1_500;
/** A page that cannot follow the frames is fetched within this. */
export const REFETCH_NOW_SPREAD_MS = 300;
/** Gives up on a page fetch after this, and tries again. */
const FETCH_TIMEOUT_MS = 10_000;

/**
 * Keeps a paged results page current: the race socket (opened with `window=1`, so it brings frames but never
 * the whole format) patches the rows on the page, and the page is fetched again as JSON when pushed rows
 * move it or the page cannot follow. Frames that arrive while a fetch is under way are applied after it.
 */
export function useLiveWindow(
  raceId: string,
  initial: ResultsWindow,
  enabled = true,
): { live: ShownLiveState; window: ResultsWindow; changed: ReadonlySet<string> } {
  const [window, setWindow] = useState(initial);
  const [changed, setChanged] = useState<ReadonlySet<string>>(new Set());
  const [live, setLive] = useState<LiveState>("connecting");
  const held = useRef(initial);
  const fetching = useRef<{
    timer: ReturnType<typeof setTimeout> | null;
    inFlight: boolean;
    again: Refetch;
    buffered: RaceServerMessage[];
    failures: number;
    /** The newest version the socket named while the page was behind it (see WindowStep.target). */
    wanted: string | null;
  }>({ timer: null, inFlight: false, again: null, buffered: [], failures: 0, wanted: null });

  /** Sends on the current socket once it said hello; null between sockets. */
  const sender = useRef<((text: string) => void) | null>(null);
  // Tells the shard which rows this page can use, so a phone on page 1 is not sent the whole field's changes.
  const announce = () => sender.current?.(JSON.stringify(windowMessageOf(held.current)));

  // A navigation (another group, page, search or order) brings a new first page from the loader.
  useEffect(() => {
    held.current = initial;
    setWindow(initial);
    setChanged(new Set());
    announce();
  }, [initial]);

  const formatId = initial.format.formatId;
  useEffect(() => {
    // Turned off: no socket and no fetch; turned on again, the socket's hello says whether the page is behind.
    if (!enabled) return;
    let stopped = false;
    const state = fetching.current;
    const show = (next: ResultsWindow, marks: ReadonlySet<string> | null) => {
      held.current = next;
      setWindow(next);
      if (marks) setChanged(marks);
    };
    const apply = (message: RaceServerMessage) => {
      const step = followWindowFrame(held.current, message);
      if (step.window !== held.current) show(step.window, step.changed);
      if (step.target !== undefined && (state.wanted === null || notAfter(state.wanted, step.target))) state.wanted = step.target;
      if (step.refetch) schedule(step.refetch);
      return step.outcome;
    };
    const load = async () => {
      state.timer = null;
      state.inFlight = true;
      const asked = held.current;
      // `v`: the version the page holds, so pages holding the same one share the edge's cached answer.
      const search = windowSearch({ ...asked.query, racer: null }, asked.format.formatId);
      const version = state.wanted ?? asked.format.version;
      const url = `/races/${raceId}/results.json${search}&v=${encodeURIComponent(version)}`;
      try {
        const response = await fetch(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
        if (!response.ok) throw new Error(`results page: ${response.status}`);
        const fresh = readWindow(await response.json());
        if (stopped) return;
        // A navigation while the fetch was out owns the page now.
        if (held.current.query !== asked.query) return;
        state.failures = 0;
        if (state.wanted !== null && notAfter(state.wanted, fresh.format.version)) state.wanted = null;
        show(fresh, null);
        announce();
        const buffered = state.buffered.splice(0);
        for (const message of buffered) apply(message);
      } catch (error) {
        if (stopped) return;
        console.error("results page:", error);
        state.again = "now";
        state.failures += 1;
      } finally {
        state.inFlight = false;
        if (!stopped && state.again) {
          const wait = state.failures > 0 ? backoffDelay(state.failures, Math.random) : refetchDelay(state.again);
          state.again = null;
          state.timer = setTimeout(() => void load(), wait);
        }
      }
    };
    const schedule = (refetch: NonNullable<Refetch>) => {
      if (state.inFlight) {
        state.again = state.again === "now" || refetch === "now" ? "now" : "soon";
        return;
      }
      if (state.timer !== null && refetch === "soon") return;
      if (state.timer !== null) clearTimeout(state.timer);
      state.timer = setTimeout(() => void load(), refetchDelay(refetch));
    };
    const stop = keepRaceSocket(raceId, {
      query: () => new URLSearchParams({ format: formatId, since: held.current.format.version, window: "1" }).toString(),
      onFrame: (message) => {
        if (state.inFlight) {
          state.buffered.push(message);
          return message.type === "hello" && message.version === held.current.format.version ? "current" : "ok";
        }
        return apply(message);
      },
      setLive,
      onSender: (send) => {
        sender.current = send;
        announce();
      },
    });
    return () => {
      stopped = true;
      if (state.timer !== null) clearTimeout(state.timer);
      state.timer = null;
      state.buffered = [];
      stop();
    };
  }, [raceId, formatId, enabled]);

  return { live: enabled ? live : "paused", window, changed };
}

function refetchDelay(refetch: NonNullable<Refetch>): number {
  return refetch === "now" ? jitterDelay(REFETCH_NOW_SPREAD_MS, Math.random) : REFETCH_GAP_MS + jitterDelay(REFETCH_SPREAD_MS, Math.random);
}

/** The JSON is our own server's answer to our own request; checked for the shape the page relies on, not trusted blind. */
function readWindow(value: unknown): ResultsWindow {
  const window = value as ResultsWindow;
  if (typeof window?.format?.version !== "string" || !Array.isArray(window.groups) || typeof window.query !== "object") {
    throw new Error("results page: not a page of results");
  }
  return window;
}
