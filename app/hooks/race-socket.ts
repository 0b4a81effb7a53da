/**
 * The race socket loop shared by live results and live heats: one current socket at a time, reconnects
 * with full-jitter back-off, a heartbeat for half-open connections, and prompt reconnects when the network
 * or the page comes back. What a frame means is the page's to decide (`onFrame`); the loop only acts on the
 * outcome, so no decision waits for React to render.
 */
import type { RaceServerMessage } from "../../schema/wire/race-socket";
import { unpackFrame } from "../../schema/wire/race-frame-pack";
import { readRaceFrame, type FrameReaders } from "../../schema/wire/race-socket-read";
import { backoffDelay, jitterDelay, type RandomSource } from "./backoff";

/** `removed`: the server closed because the followed result format was deleted or hidden; nothing reconnects. */
export type LiveState = "connecting" | "live" | "offline" | "removed";

/**
 * What a page made of a frame:
 * - `ok`: nothing for the loop to do;
 * - `behind`: the server holds another version than the page, so a snapshot or rows must follow; if the
 *   page has not caught up within CATCH_UP_MS the loop reconnects with `since`;
 * - `current`: the page holds the server's version;
 * - `resync`: the page missed a push and must reconnect with the version it holds.
 */
export type FrameOutcome = "ok" | "behind" | "current" | "resync";

export interface RaceSocketHandlers {
  /** The socket's query, read at every (re)connect so `since` is the version held at that moment. */
  query: () => string;
  /** A checked frame of the current socket, called synchronously from the socket's event. */
  onFrame: (message: RaceServerMessage) => FrameOutcome;
  setLive: (state: LiveState) => void;
  /** The large frames this page reads (race-socket-read.ts); the small ones are always read. */
  frames?: FrameReaders;
  /** Given a way to send on the socket once its hello arrives (after the hello's own frame); it sends nothing once the socket is let go. */
  onSender?: (send: (text: string) => void) => void;
}

/** One socket's events, as the loop wants them. */
export interface SocketEvents {
  onMessage: (data: unknown) => void;
  /** The socket closed (with the server's close code) or failed to open (no code). */
  onClose: (code?: number) => void;
}

export interface SocketConnection {
  send: (data: string) => void;
  close: (code: number, reason: string) => void;
}

/** What the loop needs from the browser; tests pass fakes. */
export interface RaceSocketDeps {
  open: (query: string, events: SocketEvents) => SocketConnection;
  random: RandomSource;
  /** Calls `wake` when the network is back or the page is shown again, `offline` when the browser loses the network; returns the unsubscribe. */
  watch: (on: { wake: () => void; offline: () => void }) => () => void;
}

/** Sent every HEARTBEAT_MS; the room answers it without waking (setWebSocketAutoResponse). */
export const PING_FRAME = '{"type":"ping"}';
/** Under the ~30-60 s that mobile carriers and venue NATs keep an idle connection. */
export const HEARTBEAT_MS = 25_000;
/** Nothing heard this long after a ping: the connection is half-open (a phone that changed network). */
export const PONG_TIMEOUT_MS = 10_000;
/** A socket that has not said hello by then is given up, as a half-open one is. */
export const HELLO_TIMEOUT_MS = 10_000;
/** After a hello naming another version, the snapshot or rows must bring the page there within this. */
export const CATCH_UP_MS = 10_000;
/** The network came back or the page was shown: reconnect within this, spread so a venue does not reconnect at once. */
export const WAKE_JITTER_MS = 1_000;

/** The server's close code for a socket whose result format was removed. */
export const FORMAT_REMOVED_CLOSE = 4404;

/** Close codes the loop sends (4000-4999 are the application's), so server logs say why a page left. */
export const CLOSE_CODES = { resync: 4000, silent: 4001, wake: 4002, offline: 4003, stopped: 1000 } as const;

type LetGoReason = "closed" | "silent" | "resync" | "wake" | "offline";
type TimerName = "retry" | "hello" | "ping" | "pong" | "catchUp";

/** Reads a frame as the wire schema would (without zod in the page); anything else is dropped (never trusted after a bare JSON.parse). */
export function parseRaceFrame(data: unknown, frames: FrameReaders = {}): RaceServerMessage | null {
  if (typeof data !== "string") return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  return readRaceFrame(json, frames);
}

/** Runs the loop over `deps` until the returned function is called. */
export function runRaceSocket(handlers: RaceSocketHandlers, deps: RaceSocketDeps): () => void {
  // Events count only while their socket's generation is the current one: a socket let go (resync, heartbeat,
  // wake) may still deliver a frame or a close after its successor opened.
  let generation = 0;
  let socket: SocketConnection | null = null;
  /** Connections that failed since the last hello. */
  let attempt = 0;
  /** Resyncs since the page last held the server's version, so a server that keeps sending frames that do not follow is not hammered. */
  let resyncs = 0;
  let stopped = false;
  const timers: Partial<Record<TimerName, ReturnType<typeof setTimeout>>> = {};

  const clear = (name: TimerName) => {
    clearTimeout(timers[name]);
    delete timers[name];
  };
  const clearAll = () => (Object.keys(timers) as TimerName[]).forEach(clear);
  const arm = (name: TimerName, ms: number, fire: () => void) => {
    clear(name);
    timers[name] = setTimeout(() => {
      delete timers[name];
      fire();
    }, ms);
  };

  const letGo = (reason: LetGoReason) => {
    if (stopped) return;
    generation += 1;
    const old = socket;
    socket = null;
    clearAll();
    if (old && reason !== "closed") {
      try {
        old.close(CLOSE_CODES[reason], reason);
      } catch {
        // Already closed.
      }
    }
    let delay: number;
    if (reason === "resync") {
      handlers.setLive("connecting");
      delay = backoffDelay(resyncs++, deps.random);
    } else if (reason === "wake") {
      handlers.setLive("connecting");
      delay = jitterDelay(WAKE_JITTER_MS, deps.random);
    } else {
      handlers.setLive("offline");
      delay = backoffDelay(attempt++, deps.random);
    }
    arm("retry", delay, connect);
  };

  const schedulePing = () =>
    arm("ping", HEARTBEAT_MS, () => {
      try {
        socket?.send(PING_FRAME);
      } catch {
        // Not open any more: the close event follows.
      }
      arm("pong", PONG_TIMEOUT_MS, () => letGo("silent"));
      schedulePing();
    });

  const receive = (data: unknown) => {
    // Anything heard proves the connection is alive.
    clear("pong");
    const message = parseRaceFrame(data, handlers.frames);
    if (!message) return;
    if (message.type === "hello") {
      clear("hello");
      attempt = 0;
      handlers.setLive("live");
      schedulePing();
    }
    const outcome = handlers.onFrame(message);
    // A sender for this socket only: once it is let go, what is sent through it goes nowhere.
    const current = socket;
    if (message.type === "hello") handlers.onSender?.((text) => socket === current && current?.send(text));
    if (outcome === "behind") {
      if (timers.catchUp === undefined) arm("catchUp", CATCH_UP_MS, () => letGo("resync"));
    } else if (outcome === "current") {
      clear("catchUp");
      resyncs = 0;
    } else if (outcome === "resync") {
      letGo("resync");
    }
  };

  const connect = () => {
    if (stopped) return;
    const id = ++generation;
    const events: SocketEvents = {
      onMessage: (data) => {
        if (id === generation) receive(data);
      },
      onClose: (code) => {
        if (id !== generation) return;
        // The format was deleted or hidden (spectator-shard.ts): there is nothing left to reconnect to.
        if (code === FORMAT_REMOVED_CLOSE) return stopFor("removed");
        letGo("closed");
      },
    };
    try {
      socket = deps.open(handlers.query(), events);
    } catch {
      socket = null;
      letGo("closed");
      return;
    }
    arm("hello", HELLO_TIMEOUT_MS, () => letGo("silent"));
  };

  const stopFor = (state: LiveState) => {
    stopped = true;
    generation += 1;
    clearAll();
    socket = null;
    handlers.setLive(state);
  };

  const unwatch = deps.watch({ wake: () => letGo("wake"), offline: () => letGo("offline") });
  connect();
  return () => {
    stopped = true;
    generation += 1;
    clearAll();
    unwatch();
    try {
      socket?.close(CLOSE_CODES.stopped, "page closed");
    } catch {
      // Already closed.
    }
    socket = null;
  };
}

/** Keeps a race socket open in the browser; returns the function that stops it. */
export function keepRaceSocket(raceId: string, handlers: RaceSocketHandlers): () => void {
  return runRaceSocket(handlers, { open: (query, events) => openBrowserSocket(raceId, query, events), random: Math.random, watch: watchBrowser });
}

function openBrowserSocket(raceId: string, query: string, events: SocketEvents): SocketConnection {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/timing-api/races/${raceId}/socket?${query}`);
  ws.binaryType = "arraybuffer";
  // Large frames arrive deflated (race-frame-pack.ts) and inflate asynchronously: one chain keeps every
  // message, and the close after them, in the order the server sent them.
  let inOrder: Promise<void> = Promise.resolve();
  const after = (step: () => void | Promise<void>) => {
    // A failing step is logged and the chain goes on: one bad frame must not silence the ones after it.
    inOrder = inOrder.then(step).catch((error: unknown) => console.error("race socket:", error));
  };
  ws.addEventListener("message", (event) => {
    const data: unknown = event.data;
    after(async () => {
      const text = await unpackFrame(data);
      if (text !== null) events.onMessage(text);
    });
  });
  ws.addEventListener("close", (event) => after(() => events.onClose(event.code)));
  return { send: (data) => ws.send(data), close: (code, reason) => ws.close(code, reason) };
}

/**
 * `online` and showing the page again wake the loop (a phone's socket rarely survives a locked screen or a
 * change of network, and its close may never come); `offline` lets the socket go at once.
 */
function watchBrowser(on: { wake: () => void; offline: () => void }): () => void {
  let wasHidden = document.visibilityState === "hidden";
  const visibility = () => {
    if (document.visibilityState === "hidden") wasHidden = true;
    else if (wasHidden) {
      wasHidden = false;
      on.wake();
    }
  };
  window.addEventListener("online", on.wake);
  window.addEventListener("offline", on.offline);
  document.addEventListener("visibilitychange", visibility);
  return () => {
    window.removeEventListener("online", on.wake);
    window.removeEventListener("offline", on.offline);
    document.removeEventListener("visibilitychange", visibility);
  };
}
