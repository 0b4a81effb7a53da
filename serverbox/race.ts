/**
 * A race the box times: its setup as the platform sent it (`GET /serverbox-api/races/{id}`), checked, and
 * its live results from the box's own reads, computed by the platform's own code: the same read rules
 * (durable/race/ingest.ts) and the same LiveResults over the same results engine (core/timing). Decision 0060.
 */
import * as z from "zod";
import type { Crossing } from "../core/timing/model";
import { crossingStateOf, keypadPointOf, pointOfDevice, raceWindow, type RaceWindow } from "../durable/race/ingest";
import { applyStatus, manualEntryTime, withMisses } from "../durable/race/keypad-rules";
import { LiveResults, type RaceState } from "../durable/race/live-results";
import { absoluteFromTimeOfDay } from "../core/time/zero-time";
import { parseTimeOfDay, isInvalid } from "../core/time/parse";
import { raceDocumentSchemas, type RaceDocumentKind, type StoredDocument } from "../schema/race/documents";
import type { StoredRacer } from "../schema/race/engine-input";
import { engineCourseDocs } from "../schema/race/free-order";
import { chipsOf, racerFromStorage } from "../schema/race/racer";
import { keypadShootings, raceDayOf, readRaceSettings, runCountOf, zeroTimeOfRace, type RaceSettings } from "../schema/race/settings";
import type { KeypadSetup } from "../schema/wire/keypad-setup";
import type { FormatSnapshot } from "../schema/wire/race-socket";
import { isRead, type StoredLine } from "./store";

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
  private readonly racers = new Map<string, StoredRacer>();
  private version = 0;

  constructor(
    readonly pkg: RacePackage,
    lines: readonly StoredLine[],
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
    for (const r of pkg.results_setup.racers) this.racers.set(r.id, { id: r.id, data: racerFromStorage(JSON.stringify(r.data)) });
    for (const racer of this.racers.values()) {
      for (const chip of chipsOf(racer.data)) this.byChip.set(chip, racer.id);
      // The first racer by id holds a bib, as the race room's lookup answers.
      if (racer.data.bib !== null && !(this.byBib.has(racer.data.bib) && this.byBib.get(racer.data.bib)! < racer.id)) this.byBib.set(racer.data.bib, racer.id);
    }
    // Statuses and misses from the log, in order, before the results are first built.
    for (const line of lines) this.racerChangeOf(line);
    const crossings = lines.flatMap((line) => this.crossingsOf(line));
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
      racers: [...this.racers.values()],
      crossings,
      position: lines.length,
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
    const racerId = this.racerOf(read);
    return { point, racerId, time, state: time === null ? ("nopoint" as const) : crossingStateOf(point, time, this.window, racerId) };
  }

  /** The racer a keypad entry or range entry names (by bib, or a range entry's chip), or null. */
  racerOf(ref: { chip?: string; bib?: number }): string | null {
    return (ref.chip !== undefined ? this.byChip.get(ref.chip) : this.byBib.get(ref.bib ?? -1)) ?? null;
  }

  /** What a web keypad on the venue's network offers for this race, as the platform's keypad page does. */
  keypadSetup(): KeypadSetup {
    const points = [...this.points].sort((a, b) => a.ordinal - b.ordinal || a.data.name.localeCompare(b.data.name));
    return {
      raceId: this.id,
      raceName: this.name,
      timezone: this.pkg.race.timezone,
      points: points.map((p) => ({ id: p.id, name: p.data.name })),
      shootings: keypadShootings(
        this.settings,
        documentsOf(this.pkg, "Course").map((c) => c.data.lap_count),
      ),
      runs: runCountOf(this.settings),
    };
  }

  hasPoint(id: string): boolean {
    return this.points.some((p) => p.id === id);
  }

  /** What a keypad time entry is for the results, judged as the race room judges it (its point's keypad mode, no device offset). */
  judgeEntry(entry: { bib: number; point: string; time?: number; tod?: string }) {
    const point = this.points.find((p) => p.id === entry.point)!;
    const time = manualEntryTime(entry, this.zeroTime);
    const racerId = this.racerOf(entry);
    return { racerId, time, state: crossingStateOf(keypadPointOf(point), time, this.window, racerId) };
  }

  /** The crossings the engine takes from a stored line: only assigned reads and keypad times, numbered by their line. */
  private crossingsOf(line: StoredLine): Crossing[] {
    if (isRead(line)) {
      const judged = this.judge(line);
      return judged.state === "assigned" && judged.point && judged.racerId && judged.time !== null
        ? [{ seq: line.n, racerId: judged.racerId, timingPointId: judged.point.timingPointId, time: judged.time }]
        : [];
    }
    if (line.kind !== "manual" || line.entry.kind !== "time") return [];
    const judged = this.judgeEntry(line.entry);
    return judged.state === "assigned" && judged.racerId ? [{ seq: line.n, racerId: judged.racerId, timingPointId: line.entry.point, time: judged.time }] : [];
  }

  /** A status or misses a line sets on a racer (the racer's new fields), or null when it sets none. */
  private racerChangeOf(line: StoredLine): StoredRacer | null {
    if (isRead(line)) return null;
    const entry = line.entry;
    const racerId = this.racerOf(entry);
    const racer = racerId ? this.racers.get(racerId) : undefined;
    if (!racer) return null;
    let data = racer.data;
    if (line.kind === "range") data = withMisses(data, line.entry.shooting, line.entry.misses);
    else if (line.entry.kind === "range") data = withMisses(data, line.entry.shooting, line.entry.misses);
    else if (line.entry.kind === "status") data = applyStatus(data, line.entry.status, line.entry.time ?? line.at * 1000, line.entry.run);
    else return null;
    const changed = { id: racer.id, data };
    this.racers.set(racer.id, changed);
    return changed;
  }

  /** New lines, just written to the log: the racers concerned are ranked again. */
  add(lines: readonly StoredLine[]): void {
    if (lines.length === 0) return;
    for (const line of lines) {
      const changed = this.racerChangeOf(line);
      if (changed) this.results.racerSaved(changed);
    }
    this.results.addCrossings(
      lines.flatMap((line) => this.crossingsOf(line)),
      lines[lines.length - 1]!.n,
    );
    this.version += 1;
  }

  /** Every result format but the announcer's, as a results page renders it. */
  snapshots(): FormatSnapshot[] {
    return this.formats.filter((f) => !f.data.is_announcer).map((f) => this.results.snapshot(f, String(this.version)));
  }

  /** A racer's misses per shooting as the box holds them (null for a shooting not yet reported). */
  missesOf(racerId: string): (number | null)[] {
    return this.racers.get(racerId)?.data.biathlon_misses ?? [];
  }

  /** Each racer's status and time, as the platform's race package reports them (the check that box and platform agree). */
  racerResults(): { id: string; status: string; time: number | null }[] {
    return [...this.racers.keys()].map((id) => {
      const result = this.results.result(id);
      return { id, status: result?.status ?? "notstarted", time: result?.time ?? null };
    });
  }
}
