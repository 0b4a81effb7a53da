/**
 * Pushes a race's stored reads to the platform (`POST /timing-api/races/{id}/reads`, the box's token and a
 * `Timing-Device` header): each device's reads in order, in batches, under the race's boot of the box's own
 * with each read's line number as its seq. A resend is therefore always the same read under the same number,
 * and the platform counts it once: that, not the box's cursor, is the guarantee (decision 0060).
 */
import { backoffDelay, SYNC_BACKOFF, type BackoffPolicy } from "../core/servers/backoff";
import { isTransient, type CloudAnswer, type CloudClient, type UpstreamRead } from "./cloud";
import type { ReadLog, StoredRead, SyncState } from "./store";

/** The timing API takes 1,000 reads a batch; half keeps a request small on a weak link. */
export const SYNC_BATCH = 500;

export interface SyncIo {
  sleep: (ms: number, wake: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
  saveState: (state: SyncState) => void;
  /** Every answer of the platform, so the box knows whether it is online and whether its token still works. */
  heard?: (answer: CloudAnswer<unknown>) => void;
}

export type SyncStatus = "idle" | "sent" | "retry" | "stopped";

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

export class SyncLoop {
  online: boolean | null = null;
  /** A refusal resending cannot fix (a 4xx): shown on the box's page; the loop stops until the box restarts. */
  error: string | null = null;
  private attempt = 0;
  private stopped = false;
  private wake = new AbortController();
  private readonly halt = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    private readonly cloud: Pick<CloudClient, "postReads">,
    private readonly raceId: string,
    private readonly log: ReadLog,
    readonly state: SyncState,
    private readonly io: SyncIo,
    private readonly policy: BackoffPolicy = SYNC_BACKOFF,
    private readonly batchSize = SYNC_BATCH,
  ) {}

  /** Reads acknowledged by the platform (each device's reads up to its cursor). */
  get synced(): number {
    let count = 0;
    for (const read of this.log.all()) if (read.n <= (this.state.cursors[read.device] ?? 0)) count += 1;
    return count;
  }

  /** The oldest unsent read's device, and that device's unsent reads after it, in order. */
  nextBatch(): { device: string; reads: StoredRead[] } | null {
    let device: string | null = null;
    const reads: StoredRead[] = [];
    for (const read of this.log.slice(this.state.synced)) {
      if (read.n <= (this.state.cursors[read.device] ?? 0)) continue;
      device ??= read.device;
      if (read.device !== device) continue;
      reads.push(read);
      if (reads.length >= this.batchSize) break;
    }
    return device === null ? null : { device, reads };
  }

  /** Sends one batch; says whether there was nothing to send, it went, it should be retried, or the loop must stop. */
  async step(): Promise<SyncStatus> {
    if (this.error !== null) return "stopped";
    const batch = this.nextBatch();
    if (!batch) return "idle";
    const answer = await this.cloud.postReads(this.raceId, batch.device, this.state.boot, batch.reads.map(upstreamRead));
    this.io.heard?.(answer);
    if (answer.kind === "ok") {
      this.online = true;
      this.state.cursors[batch.device] = batch.reads[batch.reads.length - 1]!.n;
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

  /** `synced` in the state is how many leading lines every device has sent: scanning starts there. */
  private advanceLowWater(): void {
    let low = this.state.synced;
    for (const read of this.log.slice(low)) {
      if (read.n > (this.state.cursors[read.device] ?? 0)) break;
      low += 1;
    }
    this.state.synced = low;
  }

  /** New reads were stored: send them now rather than after the idle wait. */
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
      // A retry waits out its backoff; only an idle loop wakes early for new reads.
      await this.io.sleep(wait, status === "idle" ? AbortSignal.any([this.wake.signal, this.halt.signal]) : this.halt.signal);
      if (this.wake.signal.aborted) this.wake = new AbortController();
    }
  }
}
