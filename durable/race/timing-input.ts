/**
 * What timing devices and timers send a RaceRoom: device reads, keypad entries and biathlon range data.
 * Each batch is checked whole, then written in one transaction before the reply (the acknowledgement)
 * leaves; results and spectators catch up at the next tick (live-feed.ts).
 */
import { bumpMtimes } from "../../core/entity/field-mtimes";
import { isInvalid, parseTimeOfDay } from "../../core/time/parse";
import type { StoredDocument } from "../../schema/race/documents";
import type { StoredRacer } from "../../schema/race/engine-input";
import { readRaceSettings, zeroTimeOfRace } from "../../schema/race/settings";
import {
  keyerOf,
  manualBatchSchema,
  rangeBatchSchema,
  readBatchSchema,
  type ManualReceipt,
  type RangeReceipt,
  type ReadBatchReceipt,
} from "../../schema/wire/timing-api";
import { constantTimeEqualText, hashToken } from "../../core/auth/tokens";
import { crossingStateOf, ingestReads, issueText, keepsRacer, keypadPointOf, raceWindow, SequenceReused } from "./ingest";
import type { LiveFeed } from "./live-feed";
import { applyStatus, manualEntriesProblem, manualEntryTime, withMisses } from "./keypad-rules";
import type { RaceStore } from "./store";

export type TimingReply<T> = { ok: true; value: T } | { ok: false; status: 400 | 401 | 403 | 404 | 409; error: string; message: string };

/** The race fields timing input needs, read from the room's setup row. */
export interface RaceTimes {
  startTime: number;
  endTime: number | null;
  timezone: string;
}

export interface TimingInputHost {
  store: RaceStore;
  feed: LiveFeed;
  transaction<T>(write: () => T): T;
  /** The race's times from its setup row, or null before the room is opened. */
  race(): RaceTimes | null;
  /** The race's stored timing settings (biathlon range data checks its device against them). */
  settings(): unknown;
}

const NOT_OPENED = { ok: false, status: 404, error: "race_not_opened", message: "Race not opened" } as const;
const BAD_DEVICE = { ok: false, status: 401, error: "invalid_device", message: "Unknown device or wrong credential" } as const;

export class TimingInput {
  // The hash of each device's last presented secret: a device sends the same one with every batch, and hashing
  // it again each time cost more than checking the batch. Only the hash is compared with storage, every time.
  private readonly secretHashes = new Map<string, { secret: string; hash: string }>();

  constructor(private readonly host: TimingInputHost) {}

  /**
   * A device's batch of reads. The device proves itself with its own credential; a read is known by device,
   * boot and sequence number, and a number reused for a different read refuses the batch (409).
   */
  ingest(credential: string, body: unknown): TimingReply<ReadBatchReceipt> {
    const race = this.host.race();
    if (!race) return NOT_OPENED;
    const device = this.authenticateDevice(credential);
    if (!device) return BAD_DEVICE;
    return this.ingestFrom(race, device, body);
  }

  /**
   * Reads a paired serverbox forwards for one of the race's devices (decision 0055): the Worker has checked
   * the box's token and that the race is its club's; the device must be one the race lists.
   */
  ingestForDevice(deviceId: string, body: unknown): TimingReply<ReadBatchReceipt> {
    const race = this.host.race();
    if (!race) return NOT_OPENED;
    const device = this.host.store.document("TimingDevice", deviceId);
    if (!device) return { ok: false, status: 400, error: "unknown_device", message: "This race has no timing device with that id" };
    return this.ingestFrom(race, device, body);
  }

  private ingestFrom(race: RaceTimes, device: StoredDocument<"TimingDevice">, body: unknown): TimingReply<ReadBatchReceipt> {
    const batch = readBatchSchema.safeParse(body);
    if (!batch.success) return { ok: false, status: 400, error: "invalid_batch", message: issueText(batch.error.issues) };
    const badTod = batch.data.reads.findIndex((r) => r.tod !== undefined && isInvalid(parseTimeOfDay(r.tod)));
    if (badTod >= 0) {
      const problem = parseTimeOfDay(batch.data.reads[badTod]!.tod!) as { error: string };
      return { ok: false, status: 400, error: "invalid_batch", message: `reads[${badTod}].tod: ${problem.error}` };
    }
    const store = this.host.store;
    const context = {
      store,
      device,
      points: store.documents("TimingPoint"),
      window: raceWindow(race.startTime, race.endTime),
      zeroTime: zeroTimeOfRace(race.startTime, race.timezone),
      now: Date.now(),
    };
    let receipt: ReadBatchReceipt;
    try {
      receipt = this.host.transaction(() => ingestReads(context, batch.data.reads, batch.data.boot ?? null)).receipt;
    } catch (error) {
      if (error instanceof SequenceReused) return { ok: false, status: 409, error: "seq_reused", message: error.advice };
      throw error;
    }
    if (receipt.accepted > 0) {
      // The built results take the batch now, from the log just written: the tick then only sends, and a flood's
      // ranking is spread over its batches instead of holding the next batch up behind one long tick.
      try {
        this.host.feed.builtResults();
      } catch (error) {
        // The reads are written: the device gets its acknowledgement, and the tick takes them from the log.
        console.error("live results could not take a batch now; the tick will", error);
      }
      this.host.feed.logChanged();
    }
    return { ok: true, value: receipt };
  }

  /** Keypad entries by a signed-in timer (or a serverbox forwarding its keypad's, as "serverbox:<id>"): a bib crossing a timing point, a status change or misses. */
  manualEntries(userId: string, body: unknown): TimingReply<ManualReceipt> {
    const race = this.host.race();
    if (!race) return NOT_OPENED;
    const batch = manualBatchSchema.safeParse(body);
    if (!batch.success) return { ok: false, status: 400, error: "invalid_entries", message: issueText(batch.error.issues) };
    const store = this.host.store;
    const points = new Map(store.documents("TimingPoint").map((p) => [p.id, p]));
    const problem = manualEntriesProblem(batch.data.entries, (id) => points.has(id));
    if (problem) return { ok: false, status: 400, error: "invalid_entries", message: problem };
    const zeroTime = zeroTimeOfRace(race.startTime, race.timezone);
    const window = raceWindow(race.startTime, race.endTime);
    const receipt: ManualReceipt = { accepted: 0, duplicates: 0, unknown_bibs: [] };
    const changedRacers: StoredRacer[] = [];
    const now = Date.now();
    this.host.transaction(() => {
      for (const entry of batch.data.entries) {
        if (store.hasManualEntry(entry.key)) {
          receipt.duplicates += 1;
          continue;
        }
        const racerId = store.racerIdByBib(entry.bib);
        // The keypad is kept in who keyed it, not in the entry, so a body never claims a phone its keyer did not vouch for.
        const { keypad: _keypad, ...body } = entry;
        store.insertManualEntry(entry.key, entry.kind, entry.bib, body, keyerOf(userId, entry), now);
        receipt.accepted += 1;
        if (!racerId) receipt.unknown_bibs.push(entry.key);
        if (entry.kind === "time") {
          const time = manualEntryTime(entry, zeroTime);
          const state = crossingStateOf(keypadPointOf(points.get(entry.point)!), time, window, racerId);
          store.insertCrossing({
            // A keypad entry is known by its client key (and manual_entries refuses it twice before this).
            deviceId: "manual",
            deviceSeq: 0,
            deviceBoot: entry.key,
            timingPointId: entry.point,
            chip: null,
            bib: entry.bib,
            channel: null,
            deviceTime: time,
            time,
            racerId: keepsRacer(state) ? racerId : null,
            state,
            receivedAt: now,
          });
        } else if (entry.kind === "range" && racerId) {
          changedRacers.push(recordMisses(store, racerId, entry.shooting, entry.misses, now));
        } else if (entry.kind === "status" && racerId) {
          const racer = store.racer(racerId)!;
          const data = applyStatus(racer.data, entry.status, entry.time ?? now * 1000, entry.run);
          store.putRacer(
            racerId,
            data,
            bumpMtimes(store.racerMtimes(racerId), entry.run === undefined ? ["dns", "dnf_time", "dsq_time"] : ["run_statuses"], now),
          );
          changedRacers.push({ id: racerId, data });
        }
      }
      this.host.feed.markRacers(changedRacers.map((r) => r.id));
    });
    this.racersChanged(changedRacers);
    if (receipt.accepted > 0) this.host.feed.logChanged();
    return { ok: true, value: receipt };
  }

  /**
   * Range data from the race's range-data device (biathlon): misses per shooting by bib or chip. The device
   * proves itself with its credential and must be the one the race names; each entry is kept once by seq.
   */
  rangeEntries(credential: string, body: unknown): TimingReply<RangeReceipt> {
    if (!this.host.race()) return NOT_OPENED;
    const device = this.authenticateDevice(credential);
    if (!device) return BAD_DEVICE;
    return this.rangeFrom(device, body);
  }

  /** Range data a paired serverbox forwards for the race's range-data device (decision 0067): the device's own seq, so a device cannot tell the box from the platform. */
  rangeEntriesForDevice(deviceId: string, body: unknown): TimingReply<RangeReceipt> {
    if (!this.host.race()) return NOT_OPENED;
    const device = this.host.store.document("TimingDevice", deviceId);
    if (!device) return { ok: false, status: 400, error: "unknown_device", message: "This race has no timing device with that id" };
    return this.rangeFrom(device, body);
  }

  private rangeFrom(device: StoredDocument<"TimingDevice">, body: unknown): TimingReply<RangeReceipt> {
    const settings = readRaceSettings(this.host.settings());
    if (settings.biathlon_penalty_type === null || settings.biathlon_range_device !== device.id) {
      return { ok: false, status: 403, error: "not_range_device", message: "This device is not the race's range-data device" };
    }
    const batch = rangeBatchSchema.safeParse(body);
    if (!batch.success) return { ok: false, status: 400, error: "invalid_batch", message: issueText(batch.error.issues) };
    const store = this.host.store;
    const receipt: RangeReceipt = { accepted: 0, duplicates: 0, unknown: [] };
    const changed: StoredRacer[] = [];
    const now = Date.now();
    this.host.transaction(() => {
      for (const entry of batch.data.entries) {
        const key = `${device.id}:range:${entry.seq}`;
        if (store.hasManualEntry(key)) {
          receipt.duplicates += 1;
          continue;
        }
        store.insertManualEntry(key, "range", entry.bib ?? -1, entry, null, now);
        receipt.accepted += 1;
        const racerId = entry.chip !== undefined ? store.racerIdByChip(entry.chip) : store.racerIdByBib(entry.bib ?? -1);
        if (racerId) changed.push(recordMisses(store, racerId, entry.shooting, entry.misses, now));
        else receipt.unknown.push(entry.seq);
      }
      this.host.feed.markRacers(changed.map((r) => r.id));
    });
    this.racersChanged(changed);
    return { ok: true, value: receipt };
  }

  // Racers changed in place (statuses, misses): the built results take them now, spectators at the tick.
  private racersChanged(racers: StoredRacer[]): void {
    if (racers.length === 0) return;
    const live = this.host.feed.builtResults();
    for (const racer of racers) live?.racerSaved(racer);
    this.host.feed.racersChanged();
  }

  /** `<deviceId>.<secret>`, compared with the stored hash in constant time. */
  private authenticateDevice(credential: string): StoredDocument<"TimingDevice"> | null {
    const dot = credential.indexOf(".");
    if (dot <= 0) return null;
    const deviceId = credential.slice(0, dot);
    const stored = this.host.store.credentialHash(deviceId);
    if (!stored || !constantTimeEqualText(stored, this.hashOfSecret(deviceId, credential.slice(dot + 1)))) return null;
    return this.host.store.document("TimingDevice", deviceId);
  }

  private hashOfSecret(deviceId: string, secret: string): string {
    const last = this.secretHashes.get(deviceId);
    if (last?.secret === secret) return last.hash;
    const hash = hashToken(secret);
    // Bounded by the devices that ever presented a stored credential's id (a made-up id finds no hash above).
    this.secretHashes.set(deviceId, { secret, hash });
    return hash;
  }
}

/** Removes a racer's range data (timing.md: clearing all times removes biathlon data); null when it had none. */
export function clearMisses(store: RaceStore, racerId: string): StoredRacer | null {
  const racer = store.racer(racerId);
  if (!racer || racer.data.biathlon_misses.length === 0) return null;
  const data = { ...racer.data, biathlon_misses: [] };
  store.putRacer(racerId, data, bumpMtimes(store.racerMtimes(racerId), ["biathlon_misses"], Date.now()));
  return { id: racerId, data };
}

/** Writes one shooting's misses on a racer (inside the caller's transaction); shootings before it stay as they are. */
function recordMisses(store: RaceStore, racerId: string, shooting: number, misses: number, now: number): StoredRacer {
  const data = withMisses(store.racer(racerId)!.data, shooting, misses);
  store.putRacer(racerId, data, bumpMtimes(store.racerMtimes(racerId), ["biathlon_misses"], now));
  return { id: racerId, data };
}
