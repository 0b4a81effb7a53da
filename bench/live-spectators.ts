// A child process holding a share of the benchmark's spectator sockets (bench/live-audience.ts forks several, so
// receiving frames is spread over processes and no process needs more than a few thousand descriptors).
// It answers the parent's messages over IPC; times are on CLOCK_MONOTONIC (nowMs), shared with the parent.
//
// Every socket opens as a browser's would (permessage-deflate offered; the Worker declines it and deflates large
// frames once per shard instead, decision 0039). Then all but every `verifyEvery`-th socket go "light": ws stops
// reading them and the bytes are only counted, the first bytes after `arm` being the armed crossing's frame
// (frames arrive one per round, after a quiet spell). Reading every frame on thousands of sockets would cost
// this machine as much CPU as the server's own sending, and slow the server down with it; the "full" sockets
// still inflate packed frames and check that the frame is the rows frame carrying the armed racer.
import type { Socket } from "node:net";
import { inflateRawSync } from "node:zlib";
import WebSocket from "ws";
import { nowMs } from "./live-http";

export type ChildCommand =
  | {
      type: "open";
      id: number;
      url: string;
      host: string;
      count: number;
      concurrency: number;
      deflate: boolean;
      verifyEvery: number;
      timeoutMs: number;
      greeting?: string;
    }
  | { type: "arm"; id: number; marker: string }
  | { type: "collect"; id: number; timeoutMs: number }
  | { type: "quiet"; id: number; quietMs: number; timeoutMs: number }
  | { type: "stats"; id: number }
  | { type: "close"; id: number; timeoutMs: number };

export interface ChildStats {
  sockets: number;
  /** Frames inflated and read by the full sockets. */
  frames: number;
  /** Bytes on the wire (compressed), all sockets. */
  bytes: number;
  snapshots: number;
  /** Of the frames read, the patch frames (decision 0059): whole rows still go to sockets of a shard without its copy. */
  patches: number;
  /** Sockets the server closed (or that broke) while the benchmark still held them. */
  dropped: number;
  lastFrameAt: number;
}

export type ChildReply =
  | { id: number; type: "opened"; opened: number; failed: number; errors: string[] }
  | { id: number; type: "arrivals"; times: number[]; verified: number[]; missing: number; verifiedMissing: number }
  | { id: number; type: "quiet"; quiet: boolean }
  | { id: number; type: "stats"; stats: ChildStats }
  | { id: number; type: "ok" }
  | { id: number; type: "error"; message: string };

interface Spectator {
  ws: WebSocket;
  /** A full socket inflates its frames and checks the armed marker; a light one only counts bytes. */
  full: boolean;
  /**
   * When the bytes of the armed frame reached this socket (0: not yet; -1: never will). A full socket takes the
   * time its last bytes arrived on TCP, not the message event, which comes after ws's process-wide inflate queue.
   */
  arrived: number;
  /** When bytes last arrived on the TCP socket. */
  lastData: number;
}

const ROWS = Buffer.from('{"type":"rows"');
const PATCH = Buffer.from('{"type":"patch"');
/** What a paged page that told its shard what it shows is sent (decision 0085). */
const WINDOW_ROWS = Buffer.from('{"type":"window-rows"');
const SNAPSHOT = Buffer.from('{"type":"snapshot"');
const spectators: Spectator[] = [];
const stats: ChildStats = { sockets: 0, frames: 0, bytes: 0, snapshots: 0, patches: 0, dropped: 0, lastFrameAt: 0 };
let marker: Buffer | null = null;
/** Open sockets the armed marker has not reached yet, and who waits for that to reach 0. */
let pending = 0;
let allArrived: (() => void) | null = null;
let closing = false;

function arrivedOn(spectator: Spectator, at: number): void {
  spectator.arrived = at;
  if (--pending === 0) allArrived?.();
}

/** Bytes on a socket's TCP connection (every socket; for a light one, all that is done with them). */
function onBytes(spectator: Spectator, chunk: Buffer): void {
  const at = nowMs();
  spectator.lastData = at;
  stats.bytes += chunk.length;
  stats.lastFrameAt = at;
  if (!spectator.full && marker && spectator.arrived === 0) arrivedOn(spectator, at);
}

function reply(message: ChildReply): void {
  // The parent may be gone already (it ended, or was stopped); there is nobody left to answer.
  if (process.connected) process.send?.(message);
}

function onFrame(spectator: Spectator, raw: Buffer, isBinary: boolean): void {
  stats.frames += 1;
  // A binary frame is the JSON deflated once by its shard (schema/wire/race-frame-pack.ts).
  const data = isBinary ? inflateRawSync(raw) : raw;
  const is = (prefix: Buffer) => data.subarray(0, prefix.length).equals(prefix);
  const patch = is(PATCH);
  if (patch) stats.patches += 1;
  if (is(SNAPSHOT)) stats.snapshots += 1;
  else if (marker && spectator.arrived === 0 && (patch || is(ROWS) || is(WINDOW_ROWS)) && data.indexOf(marker) >= 0)
    arrivedOn(spectator, spectator.lastData || nowMs());
}

/** Opens one socket and waits for its hello; rejects on error, close or deadline. */
function openOne(url: string, host: string, deflate: boolean, full: boolean, timeoutMs: number, greeting?: string): Promise<Spectator> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { Host: host }, perMessageDeflate: deflate, skipUTF8Validation: true, handshakeTimeout: timeoutMs });
    const spectator: Spectator = { ws, full, arrived: 0, lastData: 0 };
    // Listened to once the socket is open (ws has its reader in place by then), and ahead of ws's reader: a frame is
    // parsed inside that reader, so the counter must have timed the chunk that completes it first.
    let raw: Socket | null = null;
    const counter = (chunk: Buffer) => onBytes(spectator, chunk);
    ws.once("upgrade", (response) => (raw = response.socket));
    ws.once("open", () => raw?.prependListener("data", counter));
    let open = false;
    const timer = setTimeout(() => fail(new Error(`no hello within ${timeoutMs} ms`)), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on("error", () => undefined);
      ws.terminate();
      reject(error);
    };
    ws.on("error", (error) => (open ? undefined : fail(error)));
    ws.on("close", (code) => {
      if (!open) fail(new Error(`closed before hello (${code})`));
      else if (!closing) {
        stats.dropped += 1;
        // A socket that is gone will not see the marker: it is counted missing, not waited for.
        if (marker && spectator.arrived === 0) arrivedOn(spectator, -1);
      }
    });
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (!open) {
        open = true;
        clearTimeout(timer);
        // A light socket: ws's reader comes off the connection (its close and end handlers stay, so a close
        // from either side still completes), and only onBytes sees what arrives.
        if (!full && raw) for (const listener of raw.listeners("data")) if (listener !== counter) raw.off("data", listener as (...args: unknown[]) => void);
        if (greeting) ws.send(greeting);
        resolve(spectator);
        return;
      }
      onFrame(spectator, data, isBinary);
    });
  });
}

async function open(command: Extract<ChildCommand, { type: "open" }>): Promise<ChildReply> {
  let next = 0;
  let failed = 0;
  const errors: string[] = [];
  // A bounded number of handshakes in flight at once.
  await Promise.all(
    Array.from({ length: Math.min(command.concurrency, command.count) }, async () => {
      while (next < command.count) {
        next++;
        try {
          const full = command.verifyEvery <= 1 || spectators.length % command.verifyEvery === 0;
          spectators.push(await openOne(command.url, command.host, command.deflate, full, command.timeoutMs, command.greeting));
        } catch (error) {
          failed++;
          if (errors.length < 5) errors.push(String(error));
        }
      }
    }),
  );
  stats.sockets = spectators.length;
  return { id: command.id, type: "opened", opened: command.count - failed, failed, errors };
}

/** Resolves when every socket has the armed marker, or at the deadline with what arrived. */
async function collect(id: number, timeoutMs: number): Promise<ChildReply> {
  if (pending > 0) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      allArrived = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  allArrived = null;
  const reached = spectators.filter((s) => s.arrived > 0);
  const verified = reached.filter((s) => s.full);
  marker = null;
  return {
    id,
    type: "arrivals",
    times: reached.map((s) => s.arrived),
    verified: verified.map((s) => s.arrived),
    missing: spectators.length - reached.length,
    verifiedMissing: spectators.filter((s) => s.full).length - verified.length,
  };
}

async function quiet(id: number, quietMs: number, timeoutMs: number): Promise<ChildReply> {
  const deadline = nowMs() + timeoutMs;
  while (nowMs() < deadline) {
    if (nowMs() - stats.lastFrameAt >= quietMs) return { id, type: "quiet", quiet: true };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { id, type: "quiet", quiet: false };
}

async function close(id: number, timeoutMs: number): Promise<ChildReply> {
  closing = true;
  const closed = spectators.map((s) =>
    s.ws.readyState === WebSocket.CLOSED
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          s.ws.once("close", () => resolve());
          s.ws.close(1000);
        }),
  );
  const timer = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs));
  await Promise.race([Promise.all(closed), timer]);
  // Whatever did not finish its closing handshake in time is cut.
  for (const s of spectators) if (s.ws.readyState !== WebSocket.CLOSED) s.ws.terminate();
  return { id, type: "ok" };
}

process.on("message", (command: ChildCommand) => {
  const handle = async (): Promise<ChildReply> => {
    switch (command.type) {
      case "open":
        return open(command);
      case "arm":
        pending = 0;
        for (const s of spectators) {
          const open = s.ws.readyState === WebSocket.OPEN;
          s.arrived = open ? 0 : -1;
          if (open) pending++;
        }
        marker = Buffer.from(command.marker);
        return { id: command.id, type: "ok" };
      case "collect":
        return collect(command.id, command.timeoutMs);
      case "quiet":
        return quiet(command.id, command.quietMs, command.timeoutMs);
      case "stats":
        stats.sockets = spectators.filter((s) => s.ws.readyState === WebSocket.OPEN).length;
        return { id: command.id, type: "stats", stats: { ...stats } };
      case "close":
        return close(command.id, command.timeoutMs);
    }
  };
  handle()
    .then(reply, (error: unknown) => reply({ id: command.id, type: "error", message: String(error) }))
    .finally(() => {
      if (command.type === "close") process.disconnect();
    });
});
// The parent going away ends this process too.
process.on("disconnect", () => {
  closing = true;
  for (const s of spectators) s.ws.terminate();
  setTimeout(() => process.exit(0), 100).unref();
});
