/**
 * Live results: keeps every racer's result and every result group's sorted members (ordered-results.ts), and
 * on each batch of crossings recomputes only the racers concerned and moves them within their groups. Same
 * answers as computeFull (full.ts), which the property test checks after every step.
 */
import { resultForRacer } from "./compute";
import { inGroup } from "./groups";
import type {
  BiathlonResult,
  RunSummary,
  SegmentSummary,
  Course,
  Crossing,
  RaceInput,
  Racer,
  RacerResult,
  RankedResult,
  RaceRules,
  ResultGroupSpec,
  Split,
  StartGroup,
  TimedRacer,
} from "./model";
import { DEFAULT_MAX_BLOCK, OrderedList } from "./ordered-results";
import { compareKeys, rankSorted } from "./rank";
import { RacerCrossings } from "./racer-crossings";
import { SeqSet } from "./seq-set";

/** What a call changed: racers whose result (or group membership) changed, and groups whose rows did. */
export interface Change {
  racerIds: string[];
  groupIds: string[];
}

export interface EngineOptions {
  /** Block size of each group's ordered list (ordered-results.ts); tests pass a small one to split often. */
  maxBlock?: number;
}

/** Group members sort by key; keys end with the racer's order, so no two members compare equal. */
function byKey(a: RacerResult, b: RacerResult): number {
  return compareKeys(a.key, b.key);
}

/** Keys are unique per racer, so a miss (nothing changed) or another racer there means the membership is corrupt. */
function checkFound(found: RacerResult | undefined, result: RacerResult): void {
  if (found?.racerId !== result.racerId) throw new Error(`results engine: racer ${result.racerId} is not where its key puts it`);
}

/** Takes a racer's result out of a group. */
function removeResult(members: OrderedList<RacerResult>, result: RacerResult): void {
  checkFound(members.remove(result), result);
}

/** Moves a racer from its old place to its new one (in place when it stays between its neighbours). */
function moveResult(members: OrderedList<RacerResult>, previous: RacerResult, next: RacerResult): void {
  checkFound(members.replace(previous, next), previous);
}

function sameKey(a: readonly number[] | null, b: readonly number[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function sameSplits(a: readonly Split[], b: readonly Split[]): boolean {
  return (
    a.length === b.length &&
    a.every((split, i) => {
      const other = b[i] as Split;
      return (
        split.index === other.index &&
        split.coursePointId === other.coursePointId &&
        split.lap === other.lap &&
        split.time === other.time &&
        split.elapsed === other.elapsed
      );
    })
  );
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function sameBiathlon(a: BiathlonResult | undefined, b: BiathlonResult | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.penalty === b.penalty && a.total === b.total && a.range === b.range && a.ski === b.ski && sameList(a.misses, b.misses) && sameList(a.loops, b.loops);
}

function sameRuns(a: RunSummary[] | undefined, b: RunSummary[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((run, i) => run.status === b[i]?.status && run.time === b[i]?.time);
}

function sameSegments(a: SegmentSummary[] | undefined, b: SegmentSummary[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((segment, i) => segment.time === b[i]?.time && segment.runs === b[i]?.runs);
}

/** Deep equality of two results: an unchanged racer is not reported. */
export function sameResult(a: RacerResult, b: RacerResult): boolean {
  return (
    a.racerId === b.racerId &&
    a.status === b.status &&
    a.statusText === b.statusText &&
    a.start === b.start &&
    a.laps === b.laps &&
    a.finish === b.finish &&
    a.time === b.time &&
    sameKey(a.key, b.key) &&
    sameKey(a.rankKey, b.rankKey) &&
    sameSplits(a.splits, b.splits) &&
    sameBiathlon(a.biathlon, b.biathlon) &&
    sameRuns(a.runs, b.runs) &&
    sameSegments(a.segments, b.segments)
  );
}

/** Group id → its place among the specs (the first, when an id repeats). */
function positionsOf(specs: readonly ResultGroupSpec[]): Map<string, number> {
  const positions = new Map<string, number>();
  specs.forEach((spec, i) => {
    if (!positions.has(spec.id)) positions.set(spec.id, i);
  });
  return positions;
}

/** Collects a Change without duplicates; group ids come out in the groups' order. */
class ChangeBuilder {
  private readonly racerIds = new Set<string>();
  private readonly groupIds = new Set<string>();

  racer(racerId: string): void {
    this.racerIds.add(racerId);
  }

  group(groupId: string): void {
    this.groupIds.add(groupId);
  }

  hasGroups(): boolean {
    return this.groupIds.size > 0;
  }

  /** Sorts only the groups touched (a crossing touches a few), not every group of the race. */
  build(positions: ReadonlyMap<string, number>): Change {
    const groupIds = [...this.groupIds].filter((id) => positions.has(id)).sort((a, b) => (positions.get(a) as number) - (positions.get(b) as number));
    return { racerIds: [...this.racerIds], groupIds };
  }
}

/**
 * Racers are ordered by their `order` when they carry one (the last sort key element, see compute.ts), which a
 * removal leaves alone; without it, by the order they were first given in: an upsert of a known racer keeps its
 * place, a new racer goes last, a removed one closes the gap. Crossings are identified by seq (a seq seen again
 * is ignored) and kept even for racer ids the race does not have, so a racer added later picks them up.
 */
export class ResultsEngine {
  private rules!: RaceRules;
  private courses = new Map<string, Course>();
  private startGroups = new Map<string, StartGroup>();
  private groupSpecs: ResultGroupSpec[] = [];
  private groupSpecById = new Map<string, ResultGroupSpec>();
  private groupPositions = new Map<string, number>();
  /** Iteration order is the racers' order; each racer's timing part only (timedOf). */
  private racers = new Map<string, TimedRacer>();
  private orderOf = new Map<string, number>();
  /** Racers without an `order` of their own: only they are renumbered when a racer is removed. */
  private listedOrders = 0;
  /** Paged (seq-set.ts): one growing Set stalled a crossing for its rehash. */
  private readonly seenSeqs = new SeqSet();
  /** Each racer's crossings sorted by time, then seq, packed (racer-crossings.ts); kept for unknown racers too. */
  private readonly crossings = new RacerCrossings();
  private results = new Map<string, RacerResult>();
  /** Group id → members sorted by key. */
  private members = new Map<string, OrderedList<RacerResult>>();
  private groupsByRacer = new Map<string, readonly string[]>();
  /** One list per distinct set of groups, shared by every racer in that set: a big race has few sets and many racers. */
  private groupLists = new Map<string, readonly string[]>();

  /** Largest block of a group's ordered list. */
  private readonly maxBlock: number;

  constructor(input: RaceInput, crossings: readonly Crossing[] = [], options: EngineOptions = {}) {
    this.maxBlock = options.maxBlock ?? DEFAULT_MAX_BLOCK;
    // Racers first, so each list is kept under its racer's own id; then in bulk: append, and sort each list once.
    this.rebuild(input, () => {
      for (const crossing of crossings) {
        if (this.seenSeqs.add(crossing.seq)) this.crossings.append(crossing, this.idOf(crossing.racerId));
      }
      this.crossings.sortAll();
    });
  }

  /** Records the crossings and moves each racer concerned within its groups. */
  addCrossings(crossings: readonly Crossing[]): Change {
    const concerned = new Set<string>();
    for (const crossing of crossings) {
      if (this.storeCrossing(crossing) && this.racers.has(crossing.racerId)) concerned.add(crossing.racerId);
    }
    const change = new ChangeBuilder();
    for (const racerId of concerned) this.recompute(racerId, change);
    return change.build(this.groupPositions);
  }

  /** Drops every crossing of the racer ("clear all times"); they come back only if sent again. */
  clearTimes(racerId: string): Change {
    for (const seq of this.crossings.remove(racerId)) this.seenSeqs.delete(seq);
    const change = new ChangeBuilder();
    if (this.racers.has(racerId)) this.recompute(racerId, change);
    return change.build(this.groupPositions);
  }

  /** Adds or edits a racer; an edit can change its result and move it between groups. */
  upsertRacer(racer: Racer): Change {
    const known = this.racers.get(racer.id);
    if (known === undefined) this.orderOf.set(racer.id, racer.order ?? this.racers.size);
    else if (racer.order !== undefined) this.orderOf.set(racer.id, racer.order);
    this.listedOrders += Number(racer.order === undefined) - Number(known !== undefined && known.order === undefined);
    const timed = timedOf(racer);
    this.racers.set(racer.id, timed);
    const previous = this.results.get(racer.id);
    const next = this.computeResult(timed);
    this.results.set(racer.id, next);
    const oldGroups = this.groupsByRacer.get(racer.id) ?? [];
    const newGroups = this.groupSpecs.filter((spec) => inGroup(spec, racer)).map((spec) => spec.id);
    this.groupsByRacer.set(racer.id, this.sharedList(newGroups));

    const change = new ChangeBuilder();
    const resultChanged = previous === undefined || !sameResult(previous, next);
    for (const groupId of oldGroups) {
      if (newGroups.includes(groupId)) continue;
      removeResult(this.membersOf(groupId), previous as RacerResult);
      change.group(groupId);
    }
    for (const groupId of newGroups) {
      if (previous !== undefined && oldGroups.includes(groupId)) {
        if (!resultChanged) continue;
        moveResult(this.membersOf(groupId), previous, next);
      } else this.membersOf(groupId).insert(next);
      change.group(groupId);
    }
    if (resultChanged || change.hasGroups()) change.racer(racer.id);
    return change.build(this.groupPositions);
  }

  /**
   * Removes a racer (its crossings stay, for a later upsert). Racers with an `order` keep their keys, so only the
   * removed racer changes; racers after it without one move up a place in the order, the last element of their
   * keys, so they are recomputed and reported too.
   */
  removeRacer(racerId: string): Change {
    const removed = this.results.get(racerId);
    const change = new ChangeBuilder();
    if (removed === undefined) return change.build(this.groupPositions);
    for (const groupId of this.groupsByRacer.get(racerId) ?? []) {
      removeResult(this.membersOf(groupId), removed);
      change.group(groupId);
    }
    change.racer(racerId);
    const removedRacer = this.racers.get(racerId) as TimedRacer;
    if (removedRacer.order === undefined) this.listedOrders--;
    if (this.listedOrders > 0) this.closeGap(racerId, change);
    this.racers.delete(racerId);
    this.orderOf.delete(racerId);
    this.results.delete(racerId);
    this.groupsByRacer.delete(racerId);
    return change.build(this.groupPositions);
  }

  /** Renumbers the racers after `racerId` that have no `order` of their own (O(n); removing a racer is an admin action). */
  private closeGap(racerId: string, change: ChangeBuilder): void {
    let index = 0;
    let after = false;
    for (const racer of this.racers.values()) {
      if (racer.id === racerId) {
        after = true;
        continue;
      }
      if (after && racer.order === undefined) {
        this.orderOf.set(racer.id, index);
        this.results.set(racer.id, this.computeResult(racer));
        change.racer(racer.id);
        for (const groupId of this.groupsByRacer.get(racer.id) ?? []) change.group(groupId);
      }
      index++;
    }
    // Each list is refilled with the new results and sorted again: a racer with an `order` may now tie-break differently.
    for (const [groupId, members] of this.members) {
      const renewed = members
        .toArray()
        .map((result) => this.results.get(result.racerId) as RacerResult)
        .sort(byKey);
      this.members.set(groupId, OrderedList.fromSorted(byKey, renewed, this.maxBlock));
    }
  }

  /** Setup changed (rules, courses, start groups, groups or the whole racer list): rebuild everything. */
  setInput(input: RaceInput): Change {
    const change = new ChangeBuilder();
    for (const racerId of this.racers.keys()) change.racer(racerId);
    for (const spec of this.groupSpecs) change.group(spec.id);
    const oldSpecs = this.groupSpecs;
    this.rebuild(input);
    for (const racerId of this.racers.keys()) change.racer(racerId);
    for (const spec of this.groupSpecs) change.group(spec.id);
    return change.build(positionsOf([...this.groupSpecs, ...oldSpecs]));
  }

  result(racerId: string): RacerResult | undefined {
    return this.results.get(racerId);
  }

  /** The group's members sorted by key (a copy); an unknown group has none. */
  groupResults(groupId: string): RacerResult[] {
    return this.members.get(groupId)?.toArray() ?? [];
  }

  ranked(groupId: string): RankedResult[] {
    const threshold = this.groupSpecById.get(groupId)?.sameTimeThreshold ?? this.rules.sameTimeThreshold;
    return rankSorted(this.members.get(groupId)?.toArray() ?? [], threshold);
  }

  /** The timing part of the racer as last given (upserted, or in the input). */
  racer(racerId: string): TimedRacer | undefined {
    return this.racers.get(racerId);
  }

  /** The course the engine placed the racer on (a free-order racer's course group), or null. */
  courseOf(racerId: string): string | null {
    return this.racers.get(racerId)?.courseId ?? null;
  }

  groupsOf(racerId: string): string[] {
    return [...(this.groupsByRacer.get(racerId) ?? [])];
  }

  /** `beforeResults` runs once the racers are known and before any result is computed. */
  private rebuild(input: RaceInput, beforeResults?: () => void): void {
    this.rules = input.rules;
    this.courses = new Map(input.courses.map((course) => [course.id, course]));
    this.startGroups = new Map(input.startGroups.map((group) => [group.id, group]));
    this.groupSpecs = [...input.groups];
    this.groupSpecById = new Map(input.groups.map((spec) => [spec.id, spec]));
    this.groupPositions = positionsOf(input.groups);
    // The whole racers, for group membership; the engine keeps their timing parts.
    const given = new Map<string, Racer>();
    this.orderOf = new Map();
    for (const racer of input.racers) {
      if (!given.has(racer.id)) this.orderOf.set(racer.id, racer.order ?? given.size);
      else if (racer.order !== undefined) this.orderOf.set(racer.id, racer.order);
      given.set(racer.id, racer);
    }
    this.racers = new Map([...given].map(([id, racer]) => [id, timedOf(racer)]));
    this.listedOrders = [...given.values()].filter((racer) => racer.order === undefined).length;
    beforeResults?.();
    this.results = new Map();
    this.groupsByRacer = new Map();
    this.groupLists = new Map();
    const sortedMembers = new Map<string, RacerResult[]>(input.groups.map((spec) => [spec.id, []]));
    for (const racer of given.values()) {
      const result = this.computeResult(this.racers.get(racer.id) as TimedRacer);
      this.results.set(racer.id, result);
      const groupIds: string[] = [];
      for (const spec of this.groupSpecs) {
        if (!inGroup(spec, racer)) continue;
        groupIds.push(spec.id);
        sortedMembers.get(spec.id)?.push(result);
      }
      this.groupsByRacer.set(racer.id, this.sharedList(groupIds));
    }
    this.members = new Map([...sortedMembers].map(([groupId, sorted]) => [groupId, OrderedList.fromSorted(byKey, sorted.sort(byKey), this.maxBlock)]));
  }

  /** False when the seq was already seen (the same crossing sent twice). */
  private storeCrossing(crossing: Crossing): boolean {
    if (!this.seenSeqs.add(crossing.seq)) return false;
    this.crossings.insert(crossing, this.idOf(crossing.racerId));
    return true;
  }

  /** The racer's own id string when the race has the racer (a read's copy of it need not be kept). */
  private idOf(racerId: string): string {
    return this.racers.get(racerId)?.id ?? racerId;
  }

  private computeResult(racer: TimedRacer): RacerResult {
    // A course id the race does not have counts as no course (status-only result), as in computeFull.
    const course = racer.courseId === null ? null : (this.courses.get(racer.courseId) ?? null);
    const context = { rules: this.rules, course, startGroups: this.startGroups, order: this.orderOf.get(racer.id) as number };
    return resultForRacer(context, racer, this.crossings.of(racer.id));
  }

  /** Recomputes a known racer and moves it within its groups, if its result changed. */
  private recompute(racerId: string, change: ChangeBuilder): void {
    const previous = this.results.get(racerId) as RacerResult;
    const next = this.computeResult(this.racers.get(racerId) as TimedRacer);
    if (sameResult(previous, next)) return;
    this.results.set(racerId, next);
    change.racer(racerId);
    for (const groupId of this.groupsByRacer.get(racerId) ?? []) {
      moveResult(this.membersOf(groupId), previous, next);
      change.group(groupId);
    }
  }

  private sharedList(groupIds: readonly string[]): readonly string[] {
    const name = groupIds.join("\n");
    const shared = this.groupLists.get(name);
    if (shared !== undefined) return shared;
    this.groupLists.set(name, groupIds);
    return groupIds;
  }

  private membersOf(groupId: string): OrderedList<RacerResult> {
    return this.members.get(groupId) as OrderedList<RacerResult>;
  }
}

/** A racer's timing part, in an object of its own so the names, chips and fields given are not kept; empty lists are left out. */
function timedOf(racer: Racer): TimedRacer {
  const { chips: _chips, firstName: _firstName, lastName: _lastName, fields: _fields, rangeMisses, runStatuses, ...timed } = racer;
  return {
    ...timed,
    ...(rangeMisses !== undefined && rangeMisses.length > 0 ? { rangeMisses } : {}),
    ...(runStatuses !== undefined && runStatuses.length > 0 ? { runStatuses } : {}),
  };
}
