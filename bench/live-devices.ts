// Timing devices for the live-path benchmark: each has its own credential, boot id and sequence counter, and
// posts its own batches over its own keep-alive connection. An ingest phase runs every device at once and
// samples two probes beside them, so a slower acknowledgement can be placed: the Worker and D1 alone (a post
// to an unknown race answers 404 before any RaceRoom), or the RaceRoom too (a wrong credential answers 401
// from the room without writing).
import { Agent } from "node:http";
import type { ReadBatchReceipt } from "../schema/wire/timing-api";
import { nowMs, postJson, requestWithRetry, sleep, type Target } from "./live-http";

export interface DemoRace {
  raceId: string;
  /** Milliseconds since the epoch. */
  startTime: number;
  devices: { id: string; name: string; token: string }[];
  formats: { id: string; name: string }[];
  racers: { id: string; bib: number; chip: string }[];
}

export interface Read {
  chip: string;
  /** Microseconds since the epoch. */
  time: number;
}

const REQUEST_TIMEOUT_MS = 10_000;

export class Device {
  private seq = 0;
  /** Boot ids allow letters, digits and . _ : - (schema/wire/timing-api.ts). */
  readonly boot = `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  readonly agent: Agent;

  constructor(
    readonly name: string,
    readonly token: string,
    inFlight: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: inFlight });
  }

  /** A batch body; numbered once, so a retry sends the same sequence numbers and is recognised as a resend. */
  batch(reads: Read[]): { boot: string; reads: { seq: number; chip: string; time: number }[] } {
    return { boot: this.boot, reads: reads.map((r) => ({ seq: ++this.seq, chip: r.chip, time: r.time })) };
  }

  async post(target: Target, raceId: string, body: unknown) {
    const { value, reply } = await postJson<ReadBatchReceipt>(target, `/timing-api/races/${raceId}/reads`, body, {
      agent: this.agent,
      timeoutMs: REQUEST_TIMEOUT_MS,
      headers: { Authorization: `Bearer ${this.token}` },
    });
    return { receipt: value, reply };
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * A device's reads for one phase, in time order: its racers cross the finish three times (laps), and the
 * reader sees each tag three times per pass, 150 ms apart, as chip readers do. Only the first read of a pass
 * changes a result row; the others are written and fall within the point's minimum split.
 */
export function deviceStream(racers: { chip: string }[], startUs: number): Read[] {
  const reads: Read[] = [];
  for (let lap = 0; lap < 3; lap++) {
    racers.forEach((racer, j) => {
      for (let pass = 0; pass < 3; pass++) reads.push({ chip: racer.chip, time: startUs + (60 + lap * 300) * 1_000_000 + j * 50_000 + pass * 150_000 });
    });
  }
  return reads;
}

export interface PhaseResult {
  reads: number;
  accepted: number;
  duplicates: number;
  seconds: number;
  /** Each batch's acknowledgement: from its first send to its 200, retries included. */
  acks: number[];
  retries: number;
  /** True when the phase hit its time cap before every batch was posted. */
  capped: boolean;
  errors: string[];
  probes: { unknownRace: number[]; roomNoWrite: number[] };
}

/** Every device posts its stream in batches, `inFlight` at a time each, all devices at once; stops at `capMs`. */
export async function ingestPhase(
  target: Target,
  raceId: string,
  devices: Device[],
  streams: Read[][],
  batchSize: number,
  capMs: number,
): Promise<PhaseResult> {
  const result: PhaseResult = {
    reads: 0,
    accepted: 0,
    duplicates: 0,
    seconds: 0,
    acks: [],
    retries: 0,
    capped: false,
    errors: [],
    probes: { unknownRace: [], roomNoWrite: [] },
  };
  const started = nowMs();
  let lastAck = started;
  let running = true;
  const probing = probe(target, raceId, devices[0]!, () => running, result.probes);
  await Promise.all(
    devices.map(async (device, d) => {
      const stream = streams[d]!;
      const batches = Array.from({ length: Math.ceil(stream.length / batchSize) }, (_, b) => stream.slice(b * batchSize, (b + 1) * batchSize));
      let next = 0;
      const inFlight = device.agent.maxSockets;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (next < batches.length && result.errors.length === 0) {
            if (nowMs() - started > capMs) {
              result.capped = true;
              return;
            }
            const body = device.batch(batches[next++]!);
            try {
              const { receipt, reply } = await device.post(target, raceId, body);
              result.acks.push(reply.ms);
              result.retries += reply.attempts - 1;
              result.reads += body.reads.length;
              result.accepted += receipt.accepted;
              result.duplicates += receipt.duplicates;
              lastAck = Math.max(lastAck, reply.at);
            } catch (error) {
              result.errors.push(`${device.name}: ${String(error)}`);
            }
          }
        }),
      );
    }),
  );
  running = false;
  await probing;
  result.seconds = (lastAck - started) / 1000;
  return result;
}

/** Every 100 ms while the phase runs: one request that stops at D1, one that reaches the RaceRoom but writes nothing. */
async function probe(target: Target, raceId: string, device: Device, running: () => boolean, into: PhaseResult["probes"]): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({ reads: [{ seq: 1, chip: "probe", time: 0 }] });
  const headers = { "Content-Type": "application/json" };
  const wrongCredential = `${device.token.split(".")[0]}.wrong-secret`;
  try {
    while (running()) {
      const unknown = await requestWithRetry(target, `/timing-api/races/${crypto.randomUUID()}/reads`, {
        method: "POST",
        body,
        headers,
        agent,
        attempts: 1,
        timeoutMs: REQUEST_TIMEOUT_MS,
      }).catch(() => null);
      if (unknown?.status === 404) into.unknownRace.push(unknown.ms);
      const room = await requestWithRetry(target, `/timing-api/races/${raceId}/reads`, {
        method: "POST",
        body,
        headers: { ...headers, Authorization: `Bearer ${wrongCredential}` },
        agent,
        attempts: 1,
        timeoutMs: REQUEST_TIMEOUT_MS,
      }).catch(() => null);
      if (room?.status === 401) into.roomNoWrite.push(room.ms);
      await sleep(100);
    }
  } finally {
    agent.destroy();
  }
}

export interface PacedResult {
  reads: number;
  /** Each batch's acknowledgement, timed from when the batch was due (not when it could be sent). */
  acks: number[];
  /** Batches sent more than LATE_MS after they were due: the device's connections were all waiting. */
  late: number;
  seconds: number;
  retries: number;
  errors: string[];
}

/** A batch held back this long behind earlier ones counts as late. */
const LATE_MS = 10;

/**
 * Every device posts its stream at a fixed rate, as a finish line does, whatever its acknowledgements say:
 * device d's batch k is due at `(k + d / devices) × interval` after the start, `interval` making the devices
 * together send `readsPerSecond`. Each device keeps up to its agent's sockets in flight. An acknowledgement is
 * timed from when its batch was due, so a batch that waited behind slow ones counts the wait too.
 */
export async function pacedPhase(
  target: Target,
  raceId: string,
  devices: Device[],
  streams: Read[][],
  batchSize: number,
  readsPerSecond: number,
  capMs: number,
): Promise<PacedResult> {
  const result: PacedResult = { reads: 0, acks: [], late: 0, seconds: 0, retries: 0, errors: [] };
  const intervalMs = (batchSize * devices.length * 1000) / readsPerSecond;
  const started = nowMs();
  let lastAck = started;
  await Promise.all(
    devices.map(async (device, d) => {
      const stream = streams[d]!;
      const inFlight = new Set<Promise<void>>();
      for (let k = 0; k * batchSize < stream.length && result.errors.length === 0; k++) {
        const due = started + (k + d / devices.length) * intervalMs;
        if (due - started > capMs) break;
        if (due > nowMs()) await sleep(due - nowMs());
        while (inFlight.size >= device.agent.maxSockets) await Promise.race(inFlight);
        if (nowMs() - due > LATE_MS) result.late += 1;
        const body = device.batch(stream.slice(k * batchSize, (k + 1) * batchSize));
        const sent: Promise<void> = device
          .post(target, raceId, body)
          .then(({ reply }) => {
            result.acks.push(reply.at - due);
            result.retries += reply.attempts - 1;
            result.reads += body.reads.length;
            lastAck = Math.max(lastAck, reply.at);
          })
          .catch((error: unknown) => void result.errors.push(`${device.name}: ${String(error)}`))
          .finally(() => inFlight.delete(sent));
        inFlight.add(sent);
      }
      await Promise.all(inFlight);
    }),
  );
  result.seconds = (lastAck - started) / 1000;
  return result;
}
