import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RaceServerMessage } from "../../schema/wire/race-socket";
import {
  CATCH_UP_MS,
  CLOSE_CODES,
  HEARTBEAT_MS,
  HELLO_TIMEOUT_MS,
  PING_FRAME,
  PONG_TIMEOUT_MS,
  runRaceSocket,
  WAKE_JITTER_MS,
  type FrameOutcome,
  type LiveState,
  type SocketEvents,
} from "./race-socket";

interface FakeSocket {
  query: string;
  events: SocketEvents;
  sent: string[];
  closed: { code: number; reason: string } | null;
}

/** The loop over fake sockets, a fixed random draw and a hand-driven wake/offline. */
function harness(options: { random?: number; onFrame?: (message: RaceServerMessage) => FrameOutcome } = {}) {
  const sockets: FakeSocket[] = [];
  const frames: RaceServerMessage[] = [];
  const states: LiveState[] = [];
  let since = "v.0";
  let on: { wake: () => void; offline: () => void } = { wake: () => {}, offline: () => {} };
  const stop = runRaceSocket(
    {
      query: () => `since=${since}`,
      onFrame: (message) => {
        frames.push(message);
        return options.onFrame?.(message) ?? "ok";
      },
      setLive: (state) => states.push(state),
    },
    {
      open: (query, events) => {
        const socket: FakeSocket = { query, events, sent: [], closed: null };
        sockets.push(socket);
        return { send: (data) => socket.sent.push(data), close: (code, reason) => (socket.closed = { code, reason }) };
      },
      random: () => options.random ?? 0.5,
      watch: (handlers) => {
        on = handlers;
        return () => (on = { wake: () => {}, offline: () => {} });
      },
    },
  );
  const last = () => sockets[sockets.length - 1]!;
  const send = (socket: FakeSocket, message: object) => socket.events.onMessage(JSON.stringify(message));
  const hello = (socket = last()) => send(socket, { type: "hello", race_id: "r", name: "Race", server_time: 0, connections: 1, version: "v.1" });
  /** Advances the clock until the loop opens another socket; returns the wait in ms. */
  const untilReconnect = () => {
    const before = sockets.length;
    let waited = 0;
    while (sockets.length === before && waited < 60_000) {
      vi.advanceTimersByTime(1);
      waited += 1;
    }
    return waited;
  };
  return {
    sockets,
    frames,
    states,
    stop,
    last,
    send,
    hello,
    untilReconnect,
    wake: () => on.wake(),
    offline: () => on.offline(),
    setSince: (v: string) => (since = v),
    state: () => states[states.length - 1],
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the race socket loop", () => {
  it("is live on hello and passes checked frames on; malformed ones never reach the page", () => {
    const h = harness();
    expect(h.sockets).toHaveLength(1);
    h.hello();
    expect(h.state()).toBe("live");
    h.last().events.onMessage("not json");
    h.send(h.last(), { type: "rows", formatId: "f" });
    h.send(h.last(), { type: "pong" });
    expect(h.frames.map((f) => f.type)).toEqual(["hello", "pong"]);
    h.stop();
  });

  it("reconnects after a drop with a full-jitter delay that doubles per failure and resets after a hello", () => {
    const h = harness({ random: 0.5 });
    const reconnectsAfter = () => {
      h.last().events.onClose();
      expect(h.state()).toBe("offline");
      return h.untilReconnect();
    };
    // Half of 500, 1000, 2000, 4000 ms.
    expect([reconnectsAfter(), reconnectsAfter(), reconnectsAfter(), reconnectsAfter()]).toEqual([250, 500, 1000, 2000]);
    h.hello();
    expect(reconnectsAfter()).toBe(250);
    h.stop();
  });

  it("stops when the server closes because the result format was removed", () => {
    const h = harness();
    h.hello();
    h.last().events.onClose(4404);
    expect(h.state()).toBe("removed");
    vi.advanceTimersByTime(60_000);
    expect(h.sockets).toHaveLength(1);
    h.stop();
  });

  it("reads the query at each reconnect, so `since` is the version held then", () => {
    const h = harness();
    h.hello();
    h.setSince("v.9");
    h.last().events.onClose();
    h.untilReconnect();
    expect(h.sockets.map((s) => s.query)).toEqual(["since=v.0", "since=v.9"]);
    h.stop();
  });

  it("on a resync closes the socket at once and ignores anything it still delivers", () => {
    const h = harness({ onFrame: (message) => (message.type === "rows" ? "resync" : "ok") });
    const first = h.last();
    h.hello(first);
    h.send(first, { type: "rows", formatId: "f", from: "v.5", version: "v.6", rows: [] });
    expect(first.closed?.code).toBe(CLOSE_CODES.resync);
    expect(h.state()).toBe("connecting");
    h.untilReconnect();
    expect(h.sockets).toHaveLength(2);
    const framesBefore = h.frames.length;
    // The old socket's late frame and close change nothing.
    h.send(first, { type: "pong" });
    first.events.onClose();
    expect(h.frames).toHaveLength(framesBefore);
    expect(h.sockets).toHaveLength(2);
    h.hello(h.last());
    expect(h.state()).toBe("live");
    h.stop();
  });

  it("backs off when the server keeps sending frames that do not follow, though each reconnect says hello", () => {
    const h = harness({ random: 0.5, onFrame: (message) => (message.type === "rows" ? "resync" : "ok") });
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      h.hello();
      h.send(h.last(), { type: "rows", formatId: "f", from: "x", version: "y", rows: [] });
      delays.push(h.untilReconnect());
    }
    expect(delays).toEqual([250, 500, 1000, 2000]);
    h.stop();
  });

  it("pings every 25 s and lets a silent (half-open) socket go 10 s after a ping", () => {
    const h = harness();
    h.hello();
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(h.last().sent).toEqual([PING_FRAME]);
    h.send(h.last(), { type: "pong" });
    vi.advanceTimersByTime(PONG_TIMEOUT_MS);
    expect(h.sockets).toHaveLength(1);
    // The next ping goes unanswered: the socket is closed and another opened.
    vi.advanceTimersByTime(HEARTBEAT_MS - PONG_TIMEOUT_MS);
    expect(h.last().sent).toEqual([PING_FRAME, PING_FRAME]);
    vi.advanceTimersByTime(PONG_TIMEOUT_MS);
    expect(h.sockets[0]!.closed?.code).toBe(CLOSE_CODES.silent);
    expect(h.state()).toBe("offline");
    h.untilReconnect();
    expect(h.sockets).toHaveLength(2);
    h.stop();
  });

  it("counts any frame as a sign of life, not only a pong", () => {
    const h = harness();
    h.hello();
    vi.advanceTimersByTime(HEARTBEAT_MS + PONG_TIMEOUT_MS - 1);
    h.send(h.last(), { type: "info", race_id: "r", connections: 3 });
    vi.advanceTimersByTime(5);
    expect(h.sockets).toHaveLength(1);
    h.stop();
  });

  it("gives up a socket that never says hello", () => {
    const h = harness();
    vi.advanceTimersByTime(HELLO_TIMEOUT_MS);
    expect(h.sockets[0]!.closed?.code).toBe(CLOSE_CODES.silent);
    h.untilReconnect();
    expect(h.sockets).toHaveLength(2);
    h.stop();
  });

  it("reconnects with `since` when a hello named another version and nothing brought the page there", () => {
    let outcome: FrameOutcome = "behind";
    const h = harness({ onFrame: (message) => (message.type === "hello" ? outcome : "ok") });
    h.hello();
    vi.advanceTimersByTime(CATCH_UP_MS);
    expect(h.sockets[0]!.closed?.code).toBe(CLOSE_CODES.resync);
    h.untilReconnect();
    // Caught up this time: nothing more happens.
    outcome = "current";
    h.hello();
    vi.advanceTimersByTime(CATCH_UP_MS * 2);
    expect(h.sockets).toHaveLength(2);
    h.stop();
  });

  it("reconnects promptly, with a short jitter, when the network or the page comes back", () => {
    const h = harness({ random: 0.999 });
    h.hello();
    h.offline();
    expect(h.sockets[0]!.closed?.code).toBe(CLOSE_CODES.offline);
    expect(h.state()).toBe("offline");
    // Attempts while offline fail and back off...
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      waits.push(h.untilReconnect());
      h.last().events.onClose();
    }
    expect(waits).toEqual([499, 999, 1998, 3996, 7992, 14985]);
    const before = h.sockets.length;
    // ...but the network coming back cuts the wait short.
    h.wake();
    vi.advanceTimersByTime(WAKE_JITTER_MS);
    expect(h.sockets).toHaveLength(before + 1);
    expect(h.state()).toBe("connecting");
    h.hello();
    expect(h.state()).toBe("live");
    h.wake();
    expect(h.sockets[before]!.closed?.code).toBe(CLOSE_CODES.wake);
    vi.advanceTimersByTime(WAKE_JITTER_MS);
    expect(h.sockets).toHaveLength(before + 2);
    h.stop();
  });

  it("stops for good: the socket is closed and nothing reconnects", () => {
    const h = harness();
    h.hello();
    const socket = h.last();
    h.stop();
    expect(socket.closed?.code).toBe(CLOSE_CODES.stopped);
    socket.events.onClose();
    h.wake();
    vi.advanceTimersByTime(60_000);
    expect(h.sockets).toHaveLength(1);
  });
});
