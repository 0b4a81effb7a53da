/**
 * Pushes a race's stored log to the platform with the box's token: device reads (`/reads`, under the race's
 * boot of the box's own with each read's line number as its seq), keypad entries (`/manual`, under their own
 * keys) and range data (`/range`, under the range device's own seq). Each channel (a reader, the keypads, a
 * range device) goes in order; a resend is always the same thing under the same identity, which the platform
 * counts once: that, not the box's cursor, is the guarantee (decisions 0060, 0067).
 */
import { backoffDelay, SYNC_BACKOFF, type BackoffPolicy } from "../core/servers/backoff";
import { isTransient, type CloudAnswer, type CloudClient, type UpstreamRead } from "./cloud";
import { isRead, type ReadLog, type StoredLine, type StoredRead, type SyncState } from "./store";

/** The timing API takes 1,000 reads a batch; half keeps a request small on a weak link. */
export const SYNC_BATCH = 500;
/** The timing API's own limits for keypad and range batches. */
const CHANNEL_LIMIT = { read: SYNC_BATCH, manual: 200, range: 500 } as const;

export interface SyncIo {
  sleep: (ms: number, wake: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
  saveState: (state: SyncState) => void;
  /** Every answer of the platform, so the box knows whether it is online and whether its token still works. */
  heard?: (answer: CloudAnswer<unknown>) => void;
}

export type SyncStatus = "idle" | "sent" | "retry" | "stopped";
export type Forwarder = Pick<CloudClient, "postReads" | "postManual" | "postRange">;
/** What the loop reads of a race's log. */
export type LogView = Pick<ReadLog, "all" | "slice">;

/** What the platform needs of a stored read: the line number is its seq in the race's boot. */
export function upstreamRead(read: StoredRead): UpstreamRead {
  return {
    seq: read.n,
    ...(read.chip === undefined ? {} : { chip: read.chip }),
    ...(read.bib === undefined ? {} : { bib: read.bib }),
    ...(read.time === undefined ? {} : { time: read.time }),
    ...(read.tod === undefined ? {} : { tod: read.tod }),
    ...(read.channel === undefined ? {} : { channel: read.channel }),
  };
}

/**
 * The queue a line travels in, its cursor's name: a reader's id (as before decision 0067, so a kept
 * `sync.json` stays right), `#manual` for the keypads, `#range:<device>` for a range device.
 */
export function channelOf(line: StoredLine): string {
  if (isRead(line)) return line.device;
  return line.kind === "manual" ? "#manual" : `#range:${line.device}`;
}

export interface Batch {
  channel: string;
  lines: StoredLine[];
}

/** The oldest unsent line's channel, and that channel's unsent lines after it, in order, up to its batch limit. */
export function nextBatch(lines: readonly StoredLine[], state: Pick<SyncState, "cursors">, batchSize = SYNC_BATCH): Batch | null {
  let channel: string | null = null;
  let limit = 0;
  const batch: StoredLine[] = [];
  for (const line of lines) {
    const own = channelOf(line);
    if (line.n <= (state.cursors[own] ?? 0)) continue;
    if (channel === null) {
      channel = own;
      limit = Math.min(batchSize, CHANNEL_LIMIT[isRead(line) ? "read" : line.kind]);
    }
    if (own !== channel) continue;
    batch.push(line);
    if (batch.length >= limit) break;
  }
  return channel === null ? null : { channel, lines: batch };
}

/** Sends one batch the way its channel travels; every receipt says how many were new and how many known. */
export function sendBatch(cloud: Forwarder, raceId: string, boot: string, batch: Batch): Promise<CloudAnswer<{ accepted: number; duplicates: number }>> {
  const first = batch.lines[0]!;
  if (isRead(first)) return cloud.postReads(raceId, first.device, boot, (batch.lines as StoredRead[]).map(upstreamRead));
  if (first.kind === "manual")
    return cloud.postManual(
      raceId,
      batch.lines.map((l) => (l.kind === "manual" ? l.entry : null)).filter((e) => e !== null),
    );
  return cloud.postRange(
    raceId,
    first.device,
    batch.lines.map((l) => (l.kind === "range" ? l.entry : null)).filter((e) => e !== null),
  );
}

export class SyncLoop {
  online: boolean | null = null;
  /** A refusal resending cannot fix (a 4xx): shown on the box's page; this race's loop stops until the box restarts. */
  error: string | null = null;
  private attempt = 0;
  private stopped = false;
  private wake = new AbortController();
  private readonly halt = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    private readonly cloud: Forwarder,
    private readonly raceId: string,
    private readonly log: LogView,
    readonly state: SyncState,
    private readonly io: SyncIo,
    private readonly policy: BackoffPolicy = SYNC_BACKOFF,
    private readonly batchSize = SYNC_BATCH,
  ) {}

  /** Lines acknowledged by the platform (each channel's lines up to its cursor). */
  get synced(): number {
    let count = 0;
    for (const line of this.log.all()) if (line.n <= (this.state.cursors[channelOf(line)] ?? 0)) count += 1;
    return count;
  }

  nextBatch(): Batch | null {
    return nextBatch(this.log.slice(this.state.synced), this.state, this.batchSize);
  }

  /** Sends one batch; says whether there was nothing to send, it went, it should be retried, or the loop must stop. */
  async step(): Promise<SyncStatus> {
    if (this.error !== null) return "stopped";
    const batch = this.nextBatch();
    if (!batch) return "idle";
    const answer = await sendBatch(this.cloud, this.raceId, this.state.boot, batch);
    this.io.heard?.(answer);
    if (answer.kind === "ok") {
      this.online = true;
      this.state.cursors[batch.channel] = batch.lines[batch.lines.length - 1]!.n;
      this.state.accepted += answer.body.accepted;
      this.state.duplicates += answer.body.duplicates;
      this.state.lastSync = this.io.now();
      this.advanceLowWater();
      this.io.saveState(this.state);
      return "sent";
    }
    return this.failed(answer);
  }

  private failed(answer: Exclude<CloudAnswer<unknown>, { kind: "ok" }>): SyncStatus {
    if (isTransient(answer)) {
      this.online = answer.kind === "http";
      return "retry";
    }
    this.online = true;
    // A refused token pauses the loop without an error: the box pairs again and starts it anew.
    if (answer.kind === "http" && answer.status === 401) return "stopped";
    const http = answer as Extract<CloudAnswer<unknown>, { kind: "http" }>;
    this.error = `${http.status} ${http.error}: ${http.message}`;
    return "stopped";
  }

  /** `synced` in the state is how many leading lines every channel has sent: scanning starts there. */
  private advanceLowWater(): void {
    let low = this.state.synced;
    for (const line of this.log.slice(low)) {
      if (line.n > (this.state.cursors[channelOf(line)] ?? 0)) break;
      low += 1;
    }
    this.state.synced = low;
  }

  /** New lines were stored: send them now rather than after the idle wait. */
  poke(): void {
    this.wake.abort();
  }

  /** Starts the loop unless it runs; it ends by itself at a refusal and is started again after pairing. */
  start(): void {
    if (this.stopped) return;
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.halt.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const status = await this.step();
      if (status === "sent") this.attempt = 0;
      if (status === "sent" || this.stopped) continue;
      if (status === "stopped") return;
      const wait = status === "retry" ? backoffDelay(this.policy, this.attempt++, this.io.random()) : 1_000;
      // A retry waits out its backoff; only an idle loop wakes early for new lines.
      await this.io.sleep(wait, status === "idle" ? AbortSignal.any([this.wake.signal, this.halt.signal]) : this.halt.signal);
      if (this.wake.signal.aborted) this.wake = new AbortController();
    }
  }
}
