/**
 * A race the box times: its setup as the platform sent it (`GET /serverbox-api/races/{id}`), checked, and
 * its live results from the box's own reads, computed by the platform's own code: the same read rules
 * (durable/race/ingest.ts) and the same LiveResults over the same results engine (core/timing). Decision 0060.
 */
import * as z from "zod";
import type { Crossing } from "../core/timing/model";
import { crossingStateOf, pointOfDevice, raceWindow, type RaceWindow } from "../durable/race/ingest";
import { LiveResults, type RaceState } from "../durable/race/live-results";
import { absoluteFromTimeOfDay } from "../core/time/zero-time";
import { parseTimeOfDay, isInvalid } from "../core/time/parse";
import { raceDocumentSchemas, type RaceDocumentKind, type StoredDocument } from "../schema/race/documents";
import type { StoredRacer } from "../schema/race/engine-input";
import { engineCourseDocs } from "../schema/race/free-order";
import { chipsOf, racerFromStorage } from "../schema/race/racer";
import { raceDayOf, readRaceSettings, zeroTimeOfRace, type RaceSettings } from "../schema/race/settings";
import type { FormatSnapshot } from "../schema/wire/race-socket";
import type { StoredRead } from "./store";

const documentSchema = z.object({ id: z.string(), kind: z.string(), ordinal: z.number(), data: z.record(z.string(), z.unknown()) });

/** The package of docs/api/serverbox-api.md, as much of it as the box uses. */
export const racePackageSchema = z.object({
  race: z.object({
    id: z.string(),
    name: z.string(),
    club_name: z.string(),
    start_time: z.number(),
    end_time: z.number().nullable(),
    timezone: z.string(),
  }),
  devices: z.array(z.object({ id: z.string(), name: z.string() })),
  racers: z.array(z.object({ id: z.string(), status: z.string().optional(), time: z.number().nullable().optional() })),
  results_setup: z.object({
    settings: z.unknown(),
    documents: z.record(z.string(), z.array(documentSchema)),
    racers: z.array(z.object({ id: z.string(), data: z.record(z.string(), z.unknown()) })),
  }),
});
export type RacePackage = z.infer<typeof racePackageSchema>;

function documentsOf<K extends RaceDocumentKind>(pkg: RacePackage, kind: K): StoredDocument<K>[] {
  // Parsed as the race room reads its own storage: defaults filled, shapes checked.
  return (pkg.results_setup.documents[kind] ?? []).map((d) => ({
    id: d.id,
    kind,
    ordinal: d.ordinal,
    data: raceDocumentSchemas[kind].parse(d.data) as StoredDocument<K>["data"],
  }));
}

export interface LocalRead {
  device: string;
  chip?: string;
  bib?: number;
  time?: number;
  tod?: string;
  channel?: number;
}

/** The race as the box holds it: setup, the rules a read is judged by, and the live results. */
export class BoxRace {
  readonly id: string;
  readonly name: string;
  readonly clubName: string;
  readonly settings: RaceSettings;
  readonly devices: StoredDocument<"TimingDevice">[];
  private readonly points: StoredDocument<"TimingPoint">[];
  private readonly formats: StoredDocument<"ResultFormat">[];
  private readonly window: RaceWindow;
  private readonly zeroTime: number;
  private readonly byChip = new Map<string, string>();
  private readonly byBib = new Map<number, string>();
  private readonly results: LiveResults;
  private version = 0;

  constructor(
    readonly pkg: RacePackage,
    reads: readonly StoredRead[],
  ) {
    const race = pkg.race;
    this.id = race.id;
    this.name = race.name;
    this.clubName = race.club_name;
    this.settings = readRaceSettings(pkg.results_setup.settings);
    this.devices = documentsOf(pkg, "TimingDevice");
    this.points = documentsOf(pkg, "TimingPoint");
    this.formats = documentsOf(pkg, "ResultFormat");
    this.window = raceWindow(race.start_time, race.end_time);
    this.zeroTime = zeroTimeOfRace(race.start_time, race.timezone);
    const racers: StoredRacer[] = pkg.results_setup.racers.map((r) => ({ id: r.id, data: racerFromStorage(JSON.stringify(r.data)) }));
    for (const racer of racers) {
      for (const chip of chipsOf(racer.data)) this.byChip.set(chip, racer.id);
      // The first racer by id holds a bib, as the race room's lookup answers.
      if (racer.data.bib !== null && !(this.byBib.has(racer.data.bib) && this.byBib.get(racer.data.bib)! < racer.id)) this.byBib.set(racer.data.bib, racer.id);
    }
    const crossings = reads.flatMap((r) => this.crossingsOf([r], r.n));
    const state: RaceState = {
      settings: this.settings,
      startTimeMs: race.start_time,
      endTimeMs: race.end_time,
      raceDay: raceDayOf(race.start_time, race.timezone),
      docs: {
        courses: engineCourseDocs(this.settings, documentsOf(pkg, "Course")),
        points: this.points,
        startGroups: documentsOf(pkg, "StartGroup"),
        formats: this.formats,
        groups: documentsOf(pkg, "ResultGroup"),
      },
      racers,
      crossings,
      position: reads.length,
    };
    this.results = new LiveResults(() => state);
  }

  device(id: string): StoredDocument<"TimingDevice"> | undefined {
    return this.devices.find((d) => d.id === id);
  }

  /** A read's time on the race's clock: the device's time (or time of day) plus the device's offset, as the race room takes it. */
  timeOf(read: LocalRead): number | null {
    const device = this.device(read.device);
    if (!device) return null;
    if (read.time !== undefined) return read.time + device.data.offset;
    const tod = parseTimeOfDay(read.tod ?? "");
    return isInvalid(tod) ? null : absoluteFromTimeOfDay(this.zeroTime, tod) + device.data.offset;
  }

  /** What a read is for the results (assigned, unmatched, outside, an announcer read, on no point). */
  judge(read: LocalRead) {
    const time = this.timeOf(read);
    const point = pointOfDevice(this.points, read.device, read.channel ?? null);
    const racerId = (read.chip !== undefined ? this.byChip.get(read.chip) : this.byBib.get(read.bib ?? -1)) ?? null;
    return { point, racerId, time, state: time === null ? ("nopoint" as const) : crossingStateOf(point, time, this.window, racerId) };
  }

  /** The crossings the engine takes from stored reads: only assigned ones, numbered by their line. */
  private crossingsOf(reads: readonly (LocalRead & { n: number })[], _position: number): Crossing[] {
    return reads.flatMap((read) => {
      const judged = this.judge(read);
      return judged.state === "assigned" && judged.point && judged.racerId && judged.time !== null
        ? [{ seq: read.n, racerId: judged.racerId, timingPointId: judged.point.timingPointId, time: judged.time }]
        : [];
    });
  }

  /** New reads, just written to the log: the racers concerned are ranked again. */
  add(reads: readonly StoredRead[]): void {
    if (reads.length === 0) return;
    this.results.addCrossings(this.crossingsOf(reads, 0), reads[reads.length - 1]!.n);
    this.version += 1;
  }

  /** Every result format but the announcer's, as a results page renders it. */
  snapshots(): FormatSnapshot[] {
    return this.formats.filter((f) => !f.data.is_announcer).map((f) => this.results.snapshot(f, String(this.version)));
  }

  /** Each racer's status and time, as the platform's race package reports them (the check that box and platform agree). */
  racerResults(): { id: string; status: string; time: number | null }[] {
    return this.pkg.results_setup.racers.map((r) => {
      const result = this.results.result(r.id);
      return { id: r.id, status: result?.status ?? "notstarted", time: result?.time ?? null };
    });
  }
}
