/**
 * The RaceRoom's start order tools (timing.md section 4): seeding racers, assigning start times and
 * assigning bibs. Each reads the start groups and racers from the store, asks core/timing for the answer,
 * and writes every change in one transaction, so a refusal writes nothing.
 */
import type { FieldErrors } from "../../core/entity/field-errors";
import { bumpMtimes } from "../../core/entity/field-mtimes";
import { isInvalid } from "../../core/time/parse";
import { assignBibs as numberBibs, BIBS_RUN_OUT, parseBibList } from "../../core/timing/bibs";
import { TIMING_ERRORS, TimingError } from "../../core/timing/errors";
import { racerDisplayName } from "../../core/timing/racer-name";
import {
  metaStartGroupFor,
  parseSeedGroupOrder,
  SeedingError,
  seedFunctionFor,
  seedRacers,
  seedStartOrder,
  type SeedFunction,
  type SeedRacer,
} from "../../core/timing/seeding";
import { stageTotal } from "../../core/timing/multistage";
import { InvalidGroupTimeError, orderForStart, planStartTimes, startTimeSortFor, type PlanGroup, type SortRacer } from "../../core/timing/start-plan";
import type { StoredDocument } from "../../schema/race/documents";
import type { StoredRacer } from "../../schema/race/engine-input";
import { chipsOf, type RacerDoc } from "../../schema/race/racer";
import { readRaceSettings, zeroTimeOfRace, type RaceSettings } from "../../schema/race/settings";
import type { RaceRecord } from "./race-record";
import { groupedBy } from "../../core/lists/group";
import type { RaceStore } from "./store";

/** What the tools need of the RaceRoom. */
export interface StartOrderRoom {
  store: RaceStore;
  transaction: <T>(write: () => T) => T;
  settings: RaceSettings;
  race: { startTimeMs: number; endTimeMs: number | null; timezone: string };
  /** Writes the race's settings (the recalculated zero time), inside the transaction. */
  saveSettings: (settings: RaceSettings) => void;
  /** Fills racers' missing random values; the values drawn are stored. */
  rng: () => number;
  now: number;
}

export type StartOrderReply<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** Runs one start-order tool against the RaceRoom's storage; `onChange` follows a success (results, sockets). */
export function runStartOrderChange<T>(
  room: { ctx: DurableObjectState; record: RaceRecord; store: RaceStore; onChange: () => void },
  run: (tools: StartOrderRoom) => StartOrderReply<T>,
): StartOrderReply<T> {
  const row = room.record.row();
  if (!row) return { ok: false, errors: { race: "Race not opened" } };
  const result = run({
    store: room.store,
    transaction: (write) => room.ctx.storage.transactionSync(write),
    settings: readRaceSettings(row.settings),
    race: { startTimeMs: row.startTime, endTimeMs: row.endTime, timezone: row.timezone },
    saveSettings: (settings) => room.record.writeSettings(settings),
    rng: Math.random,
    now: Date.now(),
  });
  if (result.ok) room.onChange();
  return result;
}

export interface SeedSummary {
  racers: number;
  groups: number;
  /** Racers whose seed or random value changed. */
  changed: number;
  functions: SeedFunction[];
}

export interface StartTimesSummary {
  racers: number;
  groups: number;
  changed: number;
  firstStart: number | null;
  lastStart: number | null;
}

export interface BibSummary {
  racers: number;
  groups: number;
  changed: number;
  firstBib: number | null;
  lastBib: number | null;
}

type Group = StoredDocument<"StartGroup">;

// ---- Seeding ----

/** Ranking points to seed by, and whether the most points start first (a points-table scheme, decision 0068). */
export interface SeedRanking {
  points: Record<string, number>;
  higherFirst: boolean;
}

/**
 * Seeds the racers of one start group (every group when null) with the group's seed function. `rankingPoints`
 * (racer id to points, from the race's ranking scheme) is written on the racers of groups seeded by ranking
 * points, so the start list shows the points used; a racer not in it is unranked. `higherFirst`: the most
 * points seed first (a points-table scheme, decision 0068).
 */
export function seedStartGroups(
  room: StartOrderRoom,
  startGroupId: string | null,
  rankingPoints: Readonly<Record<string, number>> | null = null,
  higherFirst = false,
): StartOrderReply<SeedSummary> {
  const groups = groupsToUse(room, startGroupId);
  if (!groups) return { ok: false, errors: { startgroup: TIMING_ERRORS.startGroupNotFound } };
  // The points' direction is kept with them, so the start-time sort "seed" orders them as seeding did.
  const settings = rankingPoints === null ? room.settings : { ...room.settings, ranking_higher_first: higherFirst };
  const members = racersByGroup(room.store.racers());
  const updates: StoredRacer[] = [];
  const functions = new Set<SeedFunction>();
  let racers = 0;
  for (const group of groups) {
    const mine = members.get(group.id) ?? [];
    const fn = seedFunctionOf(group, settings);
    const options = seedOptionsOf(group, settings);
    if (!options.ok) return options;
    const byPoints = fn === "ranking_points" && rankingPoints !== null;
    const pointsOf = (r: StoredRacer) => (byPoints ? (rankingPoints[r.id] ?? null) : r.data.ranking_points);
    const result = guarded(mine, () =>
      seedRacers(
        fn,
        mine.map((r) => ({ ...seedRacerOf(r, settings), rankingPoints: pointsOf(r) })),
        { ...options.value, rng: room.rng },
      ),
    );
    if (!result.ok) return result;
    functions.add(fn);
    racers += mine.length;
    for (const racer of mine) {
      const seed = result.value.seeds.get(racer.id) ?? null;
      const random = result.value.randoms.get(racer.id) ?? null;
      const points = pointsOf(racer);
      if (seed !== racer.data.seed || random !== racer.data.random || points !== racer.data.ranking_points)
        updates.push({ id: racer.id, data: { ...racer.data, seed, random, ranking_points: points } });
    }
  }
  room.transaction(() => {
    writeRacers(room, updates, ["seed", "random", "ranking_points"]);
    if (settings.ranking_higher_first !== room.settings.ranking_higher_first) room.saveSettings(settings);
  });
  return { ok: true, value: { racers, groups: groups.length, changed: updates.length, functions: [...functions] } };
}

// ---- Start times ----

/**
 * Assigns start times to every start group and its racers (timing.md section 4): zero time from the start
 * time, each group's first start, each racer's start in the group's start-time sort, then the groups in
 * order of their first start and renumbered.
 */
export function assignStartTimes(room: StartOrderRoom): StartOrderReply<StartTimesSummary> {
  const groups = room.store.documents("StartGroup");
  const members = racersByGroup(room.store.racers());
  const settings = room.settings;
  const drawn = new Map<string, number>();
  const planGroups: PlanGroup[] = [];
  for (const group of groups) {
    const mine = members.get(group.id) ?? [];
    const order = startOrderOf(room, group, mine, drawn);
    if (!order.ok) return order;
    planGroups.push({
      id: group.id,
      ordinal: group.ordinal,
      startMode: group.data.start_mode,
      scheduledStartTime: group.data.scheduled_start_time,
      assignedStartTime: group.data.assigned_start_time,
      startInterval: group.data.start_interval,
      startSize: group.data.start_size,
      startGap: group.data.start_gap,
      racerIds: order.value.order,
      offsets: order.value.offsets,
    });
  }
  const zeroTime = zeroTimeOfRace(room.race.startTimeMs, room.race.timezone);
  let plan;
  try {
    plan = planStartTimes(
      {
        startTime: room.race.startTimeMs * 1000,
        endTime: room.race.endTimeMs === null ? null : room.race.endTimeMs * 1000,
        zeroTime,
        startMode: settings.start_mode,
        startInterval: settings.start_interval,
        startSize: settings.start_size,
        isStartSizeEnabled: settings.is_start_size_enabled,
        startGap: settings.start_gap,
      },
      planGroups,
    );
  } catch (error) {
    if (!(error instanceof InvalidGroupTimeError)) throw error;
    const group = groups.find((g) => g.id === error.groupId);
    return { ok: false, errors: { assigned_start_time: `${error.message}: ${group ? groupLabel(group) : "a start group"} would start after the race's end` } };
  }
  const updates: StoredRacer[] = [];
  for (const racers of members.values()) {
    for (const racer of racers) {
      const start = plan.starts.get(racer.id);
      if (start === undefined) continue;
      const random = drawn.get(racer.id) ?? racer.data.random;
      if (start !== racer.data.assigned_start_time || random !== racer.data.random)
        updates.push({ id: racer.id, data: { ...racer.data, assigned_start_time: start, random } });
    }
  }
  const byId = new Map(groups.map((g) => [g.id, g]));
  room.transaction(() => {
    if (settings.zero_time !== plan.zeroTime) room.saveSettings({ ...settings, zero_time: plan.zeroTime });
    for (const planned of plan.groups) {
      const group = byId.get(planned.id)!;
      const data = {
        ...group.data,
        assigned_start_time: planned.assignedStartTime,
        first_start_time: planned.firstStartTime,
        last_start_time: planned.lastStartTime,
      };
      const fields = ["assigned_start_time", "first_start_time", "last_start_time"];
      room.store.putDocument("StartGroup", group.id, planned.ordinal, data, bumpMtimes(room.store.documentMtimes(group.id), fields, room.now));
    }
    writeRacers(room, updates, ["assigned_start_time", "random"]);
  });
  const starts = [...plan.starts.values()];
  return {
    ok: true,
    value: {
      racers: plan.starts.size,
      groups: plan.groups.length,
      changed: updates.length,
      firstStart: starts.length > 0 ? Math.min(...starts) : null,
      lastStart: starts.length > 0 ? Math.max(...starts) : null,
    },
  };
}

// ---- Bibs ----

/**
 * Numbers the racers of one start group (every group when null) in start order: from the group's first
 * bib, else (after the first group renumbered) on from the previous group's bibs, else the race's first
 * bib, else 1. Missing and reserved bibs (the race's lists and the group's) are skipped, and bibs kept by
 * racers not being renumbered are never given twice.
 */
export function assignBibsTo(room: StartOrderRoom, startGroupId: string | null): StartOrderReply<BibSummary> {
  const groups = groupsToUse(room, startGroupId);
  if (!groups) return { ok: false, errors: { startgroup: TIMING_ERRORS.startGroupNotFound } };
  const settings = room.settings;
  const raceSkip = new Set<number>();
  for (const field of ["missing_bibs_csv", "reserved_bibs"] as const) {
    const bibs = parseBibList(settings[field]);
    if (isInvalid(bibs)) return { ok: false, errors: { [field]: bibs.error } };
    for (const bib of bibs) raceSkip.add(bib);
  }
  const all = room.store.racers();
  const members = racersByGroup(all);
  const renumbered = new Set(groups.flatMap((g) => (members.get(g.id) ?? []).map((r) => r.id)));
  const taken = new Set(all.filter((r) => !renumbered.has(r.id) && r.data.bib !== null).map((r) => r.data.bib!));
  const bibs = new Map<string, number>();
  let next: number | null = null;
  for (const group of groups) {
    const mine = members.get(group.id) ?? [];
    const groupSkip = parseBibList(group.data.reserved_bibs);
    if (isInvalid(groupSkip)) return { ok: false, errors: { reserved_bibs: groupSkip.error } };
    const skip = groupSkip.length > 0 ? new Set([...raceSkip, ...groupSkip]) : raceSkip;
    const order = startOrderOf(room, group, mine, new Map(), true);
    if (!order.ok) return order;
    let given: Map<string, number>;
    try {
      given = numberBibs(order.value.order, {
        firstBib: group.data.first_bib ?? next ?? settings.first_bib,
        skip,
        backwards: settings.is_backwards_bibs,
        taken,
      });
    } catch (error) {
      if (error instanceof RangeError && error.message === BIBS_RUN_OUT) return { ok: false, errors: { bib: BIBS_RUN_OUT } };
      throw error;
    }
    for (const [id, bib] of given) {
      bibs.set(id, bib);
      taken.add(bib);
      next = Math.max(next ?? 0, bib + 1);
    }
  }
  const updates: StoredRacer[] = [];
  for (const racer of all) {
    const bib = bibs.get(racer.id);
    if (bib !== undefined && bib !== racer.data.bib) updates.push({ id: racer.id, data: { ...racer.data, bib } });
  }
  room.transaction(() => {
    writeRacers(room, updates, ["bib"]);
    // Reads follow the bibs: every racer lets go of its old bib's reads first, so a swap cannot lose any.
    for (const racer of updates) room.store.releaseStale(racer.id, racer.data.bib, chipsOf(racer.data));
    for (const racer of updates) room.store.assignUnmatched(racer.id, racer.data.bib, chipsOf(racer.data));
  });
  const given = [...bibs.values()];
  return {
    ok: true,
    value: {
      racers: bibs.size,
      groups: groups.length,
      changed: updates.length,
      firstBib: given.length > 0 ? Math.min(...given) : null,
      lastBib: given.length > 0 ? Math.max(...given) : null,
    },
  };
}

// ---- Mapping storage to core ----

/** Start group documents named by id (null: all of them, in ordinal order); null when the id names none. */
function groupsToUse(room: StartOrderRoom, startGroupId: string | null): Group[] | null {
  const all = room.store.documents("StartGroup");
  if (startGroupId === null) return all;
  const one = all.find((g) => g.id === startGroupId);
  return one ? [one] : null;
}

function racersByGroup(racers: readonly StoredRacer[]): Map<string, StoredRacer[]> {
  return groupedBy(
    racers.filter((racer) => racer.data.setupgroup_id !== null),
    (racer) => racer.data.setupgroup_id as string,
  );
}

function groupLabel(group: Group): string {
  return group.data.name || `Start group ${group.ordinal}`;
}

export function seedFunctionOf(group: Group, settings: RaceSettings): SeedFunction {
  return seedFunctionFor(group.data, metaStartGroupFor(group.data.metagroup_id, settings.meta_startgroups_list), settings);
}

function seedOptionsOf(group: Group, settings: RaceSettings) {
  const seedGroupOrder = parseSeedGroupOrder(group.data.custom_seed_order);
  if (isInvalid(seedGroupOrder)) return { ok: false as const, errors: { custom_seed_order: seedGroupOrder.error } };
  return {
    ok: true as const,
    value: {
      seedGroupOrder,
      prevStagesCount: settings.prev_stages_count,
      massStartCutoff: settings.is_mass_start_cutoff ? settings.mass_start_cutoff : null,
      startInterval: group.data.start_interval ?? settings.start_interval,
      rankingHigherFirst: settings.ranking_higher_first,
    },
  };
}

/** Seeding refusals as field errors in the spec's words; anything else is a bug and is thrown. */
function guarded<T>(racers: readonly StoredRacer[], run: () => T): StartOrderReply<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (error instanceof TimingError && error.code === "multipleCategories") {
      const names = racers
        .filter((r) => categoryCountOf(r.data) > 1)
        .slice(0, 5)
        .map(
          (r) =>
            `${racerDisplayName({ firstName: r.data.first_name, lastName: r.data.last_name, fullname: r.data.fullname }, false) || "a racer"}${r.data.bib === null ? "" : ` (bib ${r.data.bib})`}`,
        );
      return { ok: false, errors: { seed: `${error.message} ${names.join(", ")}` } };
    }
    if (error instanceof SeedingError) return { ok: false, errors: { prev_stages_count: error.message } };
    throw error;
  }
}

/**
 * A group's racers in start order, with pursuit offsets. A pursuit group always starts by its offsets; any
 * other group by its start-time sort ("seed": the order its seed function gave). For bibs (`forBibs`),
 * racers with a start time come first, by that time, so bibs follow the start list. Random values the
 * "random" sort needs and a racer lacks are drawn into `drawn`.
 */
function startOrderOf(
  room: StartOrderRoom,
  group: Group,
  racers: readonly StoredRacer[],
  drawn: Map<string, number>,
  forBibs = false,
): StartOrderReply<{ order: string[]; offsets: Map<string, number> | null }> {
  const settings = room.settings;
  const fn = seedFunctionOf(group, settings);
  const sort = startTimeSortFor(group.data, settings);
  let result: StartOrderReply<{ order: string[]; offsets: Map<string, number> | null }>;
  if (fn === "pursuit" || sort === "seed") {
    const options = seedOptionsOf(group, settings);
    if (!options.ok) return options;
    result = guarded(racers, () =>
      seedStartOrder(
        fn,
        racers.map((r) => seedRacerOf(r, settings)),
        options.value,
      ),
    );
  } else {
    if (sort === "random") for (const r of racers) if (r.data.random === null && !forBibs) drawn.set(r.id, room.rng());
    const sortRacers: SortRacer[] = racers.map((r) => ({
      id: r.id,
      bib: r.data.bib,
      random: drawn.get(r.id) ?? r.data.random,
      firstName: r.data.first_name,
      lastName: r.data.last_name,
    }));
    result = { ok: true, value: { order: orderForStart(sort, sortRacers, { customOrder: group.data.starttime_order_list }), offsets: null } };
  }
  if (!result.ok || !forBibs) return result;
  const startOf = new Map(racers.map((r) => [r.id, r.data.assigned_start_time ?? r.data.scheduled_start_time ?? Infinity]));
  const position = new Map(result.value.order.map((id, i) => [id, i]));
  const order = [...result.value.order].sort((a, b) => startOf.get(a)! - startOf.get(b)! || position.get(a)! - position.get(b)!);
  return { ok: true, value: { order, offsets: null } };
}

/** Categories a racer is in: its category_dict entries that are set, and the race's category fields it ticks. */
export function categoryCountOf(data: RacerDoc): number {
  const set = (v: unknown) => v !== null && v !== undefined && v !== false && v !== "" && v !== 0;
  const count =
    Object.values(data.category_dict).filter(set).length + Object.entries(data.custom).filter(([key, v]) => key.startsWith("is_") && v === true).length;
  return count === 0 && data.category ? 1 : count;
}

/**
 * Pursuit: the previous stages' total (stage_time_N less stage_bonus_N for N = 1..prev_stages_count, in
 * microseconds, from the racer's fields until multistage results have a home); null when a stage is missing.
 */
export function previousStagesTime(data: RacerDoc, prevStagesCount: number): number | null {
  if (prevStagesCount <= 0) return null;
  const numberOrNull = (value: unknown) => (typeof value === "number" ? value : null);
  const stages = Array.from({ length: prevStagesCount }, (_, i) => i + 1);
  return stageTotal({
    current: 0,
    previous: stages.map((n) => numberOrNull(data.custom[`stage_time_${n}`])),
    bonuses: stages.map((n) => numberOrNull(data.custom[`stage_bonus_${n}`])),
  });
}

export function seedRacerOf(racer: StoredRacer, settings: RaceSettings): SeedRacer {
  const d = racer.data;
  return {
    id: racer.id,
    bib: d.bib,
    random: d.random,
    seed: d.seed,
    isManualSeed: d.is_manual_seed,
    cplDistancePts: d.cpl_distance_pts,
    cplSprintPts: d.cpl_sprint_pts,
    rankingPoints: d.ranking_points,
    licence: d.ccc_licence || d.licence,
    qualifierRank: d.qualifier_num,
    categoryCount: categoryCountOf(d),
    previousTime: previousStagesTime(d, settings.prev_stages_count),
  };
}

// ---- Writing ----

function writeRacers(room: StartOrderRoom, racers: readonly StoredRacer[], fields: readonly string[]): void {
  for (const racer of racers) room.store.putRacer(racer.id, racer.data, bumpMtimes(room.store.racerMtimes(racer.id), fields, room.now));
}
