// The benchmark's spectators: sockets held by a few child processes (bench/live-spectators.ts), each at most
// PER_CHILD of them. Every call has a deadline; close() ends the children whatever state they are in.
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { inflateRawSync } from "node:zlib";
import WebSocket from "ws";
import type { ChildCommand, ChildReply, ChildStats } from "./live-spectators";

const CHILD = fileURLToPath(new URL("./live-spectators.ts", import.meta.url));
/** Sockets per child process: its descriptors stay far under the usual 20,000 limit, and frames are received in parallel. */
const PER_CHILD = 5_000;
/** Handshakes in flight per child; with four children at most 200 at once. */
const OPEN_CONCURRENCY = 50;
/** Slack on top of the children's own deadlines for an IPC answer. */
const IPC_SLACK_MS = 10_000;

type Command = ChildCommand extends infer C ? (C extends { id: number } ? Omit<C, "id"> : never) : never;

interface Child {
  process: ChildProcess;
  sockets: number;
  waiting: Map<number, (reply: ChildReply) => void>;
}

export interface OpenResult {
  opened: number;
  failed: number;
  errors: string[];
}

export class Audience {
  private children: Child[] = [];
  private nextId = 1;

  /** `verifyEvery`: every n-th socket inflates and checks frames, the others only time bytes (live-spectators.ts). */
  constructor(
    private readonly deflate: boolean,
    private readonly verifyEvery: number,
  ) {}

  /** Sockets held now (as counted when they opened). */
  get size(): number {
    return this.children.reduce((sum, c) => sum + c.sockets, 0);
  }

  pids(): number[] {
    return this.children.flatMap((c) => (c.process.pid ? [c.process.pid] : []));
  }

  /**
   * Opens sockets until `total` are held, spread over the children; `url` carries `since` so nobody gets a
   * snapshot. `greeting`: what each socket sends after its hello (a paged page's filter).
   */
  async grow(total: number, url: string, host: string, timeoutMs: number, greeting?: string): Promise<OpenResult> {
    const result: OpenResult = { opened: 0, failed: 0, errors: [] };
    const wanted = total - this.size;
    if (wanted <= 0) return result;
    while (this.children.length < Math.ceil(total / PER_CHILD)) this.children.push(this.spawn());
    // Each child is topped up to an equal share, in parallel.
    const share = Math.ceil(total / this.children.length);
    let left = wanted;
    const jobs: Promise<void>[] = [];
    for (const child of this.children) {
      const count = Math.min(left, Math.max(0, share - child.sockets));
      if (count === 0) continue;
      left -= count;
      jobs.push(
        this.ask(
          child,
          { type: "open", url, host, count, concurrency: OPEN_CONCURRENCY, deflate: this.deflate, verifyEvery: this.verifyEvery, timeoutMs: 15_000, greeting },
          timeoutMs,
        ).then((reply) => {
          if (reply.type !== "opened") throw new Error(`spectators: ${reply.type === "error" ? reply.message : reply.type}`);
          child.sockets += reply.opened;
          result.opened += reply.opened;
          result.failed += reply.failed;
          result.errors.push(...reply.errors);
        }),
      );
    }
    await Promise.all(jobs);
    return result;
  }

  /** From now on each socket notes when a `rows`, `patch` or `window-rows` frame containing `marker` (a racer id, or with patches its handle) first reaches it. */
  async arm(marker: string): Promise<void> {
    await Promise.all(this.children.map((c) => this.ask(c, { type: "arm", marker }, 0)));
  }

  /**
   * When the armed frame reached each socket (CLOCK_MONOTONIC ms), the same for the sockets that checked it
   * carries the marker (`verified`), and how many sockets (of them, verified ones) it has not reached by the deadline.
   */
  async collect(timeoutMs: number): Promise<{ times: number[]; verified: number[]; missing: number; verifiedMissing: number }> {
    const replies = await Promise.all(this.children.map((c) => this.ask(c, { type: "collect", timeoutMs }, timeoutMs)));
    const result = { times: [] as number[], verified: [] as number[], missing: 0, verifiedMissing: 0 };
    for (const reply of replies) {
      if (reply.type !== "arrivals") throw new Error("spectators: no arrivals");
      result.times.push(...reply.times);
      result.verified.push(...reply.verified);
      result.missing += reply.missing;
      result.verifiedMissing += reply.verifiedMissing;
    }
    return result;
  }

  /** Whether no frame has arrived anywhere for `quietMs` (waits up to `timeoutMs` for that). */
  async quiet(quietMs: number, timeoutMs: number): Promise<boolean> {
    const replies = await Promise.all(this.children.map((c) => this.ask(c, { type: "quiet", quietMs, timeoutMs }, timeoutMs)));
    return replies.every((r) => r.type === "quiet" && r.quiet);
  }

  async stats(): Promise<ChildStats> {
    const total: ChildStats = { sockets: 0, frames: 0, bytes: 0, snapshots: 0, patches: 0, dropped: 0, lastFrameAt: 0 };
    for (const reply of await Promise.all(this.children.map((c) => this.ask(c, { type: "stats" }, 0)))) {
      if (reply.type !== "stats") continue;
      for (const key of ["sockets", "frames", "bytes", "snapshots", "patches", "dropped"] as const) total[key] += reply.stats[key];
      total.lastFrameAt = Math.max(total.lastFrameAt, reply.stats.lastFrameAt);
    }
    return total;
  }

  /** Closes every socket (a clean close, cut after a few seconds) and ends the children. */
  async close(): Promise<void> {
    const children = this.children;
    this.children = [];
    await Promise.all(
      children.map(async (child) => {
        const exited = new Promise<void>((resolve) => (child.process.exitCode !== null ? resolve() : child.process.once("exit", () => resolve())));
        await this.ask(child, { type: "close", timeoutMs: 5_000 }, 5_000).catch(() => undefined);
        const ended = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);
        if (!ended) child.process.kill("SIGKILL");
      }),
    );
  }

  private spawn(): Child {
    // fork() reuses this process's Node flags, so under tsx the child runs TypeScript too.
    const child: Child = { process: fork(CHILD, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] }), sockets: 0, waiting: new Map() };
    child.process.on("message", (reply: ChildReply) => {
      child.waiting.get(reply.id)?.(reply);
      child.waiting.delete(reply.id);
    });
    child.process.on("exit", (code) => {
      for (const resolve of child.waiting.values()) resolve({ id: -1, type: "error", message: `spectator process exited (${code})` });
      child.waiting.clear();
    });
    return child;
  }

  private ask(child: Child, command: Command, timeoutMs: number): Promise<ChildReply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.waiting.delete(id);
        reject(new Error(`spectator process ${child.process.pid}: no answer to "${command.type}" within ${timeoutMs + IPC_SLACK_MS} ms`));
      }, timeoutMs + IPC_SLACK_MS);
      child.waiting.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      if (!child.process.connected) {
        clearTimeout(timer);
        child.waiting.delete(id);
        reject(new Error(`spectator process ${child.process.pid} is gone`));
        return;
      }
      child.process.send({ ...command, id } as ChildCommand);
    });
  }
}

/** The version a socket's hello names: new sockets claim it (`since`), so none of them is sent the whole format. */
export function helloVersion(url: string, host: string, timeoutMs = 10_000): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { Host: host }, perMessageDeflate: false, handshakeTimeout: timeoutMs });
    const timer = setTimeout(() => done(new Error(`no hello within ${timeoutMs} ms`)), timeoutMs);
    const done = (error: Error | null, version?: string) => {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on("error", () => undefined);
      ws.terminate();
      if (error) reject(error);
      else resolve(version!);
    };
    ws.on("error", (error) => done(error));
    ws.on("message", (data: Buffer) => done(null, (JSON.parse(data.toString()) as { version: string }).version));
  });
}

/**
 * Each racer's handle (decision 0059), from a snapshot of the format: a patch frame names a racer the socket
 * holds by it, so that is what a spectator looks for in a patch.
 */
export function racerHandles(url: string, host: string, timeoutMs = 30_000): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { Host: host }, perMessageDeflate: false, handshakeTimeout: timeoutMs });
    const timer = setTimeout(() => done(new Error(`no snapshot within ${timeoutMs} ms`)), timeoutMs);
    const done = (error: Error | null, handles?: Map<string, number>) => {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on("error", () => undefined);
      ws.terminate();
      if (error) reject(error);
      else resolve(handles!);
    };
    ws.on("error", (error) => done(error));
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      const frame = JSON.parse((isBinary ? inflateRawSync(data) : data).toString()) as { type: string; snapshot?: { rows: { racerId: string; h?: number }[] } };
      if (frame.type !== "snapshot") return;
      done(null, new Map(frame.snapshot!.rows.filter((row) => row.h !== undefined).map((row) => [row.racerId, row.h!])));
    });
  });
}

/**
 * What a page that reconnects with `since` is sent until it holds the format's current version (the one its
 * hello names): the bytes on the wire, the frames, and whether one was the whole format (decision 0071).
 */
export function catchUpCost(url: string, host: string, timeoutMs = 30_000): Promise<{ bytes: number; frames: number; snapshot: boolean }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { Host: host }, perMessageDeflate: false, handshakeTimeout: timeoutMs });
    const timer = setTimeout(() => done(new Error(`not caught up within ${timeoutMs} ms`)), timeoutMs);
    let target: string | null = null;
    const cost = { bytes: 0, frames: 0, snapshot: false };
    const done = (error: Error | null) => {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on("error", () => undefined);
      ws.terminate();
      if (error) reject(error);
      else resolve(cost);
    };
    ws.on("error", (error) => done(error));
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      const frame = JSON.parse((isBinary ? inflateRawSync(data) : data).toString()) as { type: string; version?: string; snapshot?: { version: string } };
      if (frame.type === "hello") {
        target = frame.version ?? null;
        return;
      }
      cost.bytes += data.length;
      cost.frames += 1;
      if (frame.type === "snapshot") cost.snapshot = true;
      const reached = frame.type === "snapshot" ? frame.snapshot!.version : frame.version;
      if (target !== null && reached === target) done(null);
    });
  });
}
