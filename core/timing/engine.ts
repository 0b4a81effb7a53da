/**
 * Live results: keeps every racer's result and every result group's sorted members, and on each batch of
 * crossings recomputes only the racers concerned and moves them within their groups. Same answers as
 * computeFull (full.ts), which the property test checks after every step.
 */
import { resultForRacer } from "./compute";
import { inGroup } from "./groups";
import type { BiathlonResult, RunSummary, SegmentSummary, Course, Crossing, RaceInput, Racer, RacerResult, RankedResult, RaceRules, ResultGroupSpec, Split, StartGroup } from "./model";
import { compareKeys, rankSorted } from "./rank";

/** What a call changed: racers whose result (or group membership) changed, and groups whose rows did. */
export interface Change {
  racerIds: string[];
  groupIds: string[];
}

/** First index whose key is not below `key`: where a result with that key sits, or would be inserted. */
function lowerBound(sorted: readonly RacerResult[], key: readonly number[]): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareKeys((sorted[middle] as RacerResult).key, key) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Where `result` sits; keys are unique per racer, so a miss means the membership is corrupt. */
function indexOfResult(sorted: readonly RacerResult[], result: RacerResult): number {
  const index = lowerBound(sorted, result.key);
  if (sorted[index]?.racerId !== result.racerId) throw new Error(`results engine: racer ${result.racerId} is not where its key puts it`);
  return index;
}

function insertSorted(sorted: RacerResult[], result: RacerResult): void {
  sorted.splice(lowerBound(sorted, result.key), 0, result);
}

function removeSorted(sorted: RacerResult[], result: RacerResult): void {
  sorted.splice(indexOfResult(sorted, result), 1);
}

/**
 * Moves a racer from its old place to its new one: in place when it stays between its neighbours, else
 * two splices (V8 splices with a memmove; copyWithin on an object array was 100× slower at 10,000 rows).
 */
function moveSorted(sorted: RacerResult[], previous: RacerResult, next: RacerResult): void {
  const from = indexOfResult(sorted, previous);
  const before = sorted[from - 1];
  const after = sorted[from + 1];
  if ((before === undefined || compareKeys(before.key, next.key) < 0) && (after === undefined || compareKeys(next.key, after.key) < 0)) {
    sorted[from] = next;
    return;
  }
  sorted.splice(from, 1);
  insertSorted(sorted, next);
}

function byTimeThenSeq(a: Crossing, b: Crossing): number {
  return a.time - b.time || a.seq - b.seq;
}

/** First index whose crossing comes after `crossing` (by time, then seq). */
function crossingInsertIndex(sorted: readonly Crossing[], crossing: Crossing): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const other = sorted[middle] as Crossing;
    if (other.time < crossing.time || (other.time === crossing.time && other.seq < crossing.seq)) low = middle + 1;
    else high = middle;
  }
  return low;
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
      return split.index === other.index && split.coursePointId === other.coursePointId && split.lap === other.lap && split.time === other.time && split.elapsed === other.elapsed;
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

  build(specs: readonly ResultGroupSpec[]): Change {
    const groupIds = [...new Set(specs.map((spec) => spec.id))].filter((id) => this.groupIds.has(id));
    return { racerIds: [...this.racerIds], groupIds };
  }
}

/**
 * Racers keep the order they were first given in (the last sort key element, see compute.ts): an upsert
 * of a known racer keeps its place, a new racer goes last, a removed one closes the gap. Crossings are
 * identified by seq (a seq seen again is ignored) and kept even for racer ids the race does not have, so
 * a racer added later picks them up.
 */
export class ResultsEngine {
  private rules!: RaceRules;
  private courses = new Map<string, Course>();
  private startGroups = new Map<string, StartGroup>();
  private groupSpecs: ResultGroupSpec[] = [];
  private groupSpecById = new Map<string, ResultGroupSpec>();
  /** Iteration order is the racers' order. */
  private racers = new Map<string, Racer>();
  private orderOf = new Map<string, number>();
  private readonly seenSeqs = new Set<number>();
  /** Each list sorted by time, then seq; kept for unknown racers too. */
  private readonly crossingsByRacer = new Map<string, Crossing[]>();
  private results = new Map<string, RacerResult>();
  /** Group id → members sorted by key. */
  private members = new Map<string, RacerResult[]>();
  private groupsByRacer = new Map<string, string[]>();

  constructor(input: RaceInput, crossings: readonly Crossing[] = []) {
    // In bulk: append, then sort each racer's list once (a binary insert each is for live crossings).
    for (const crossing of crossings) {
      if (this.seenSeqs.has(crossing.seq)) continue;
      this.seenSeqs.add(crossing.seq);
      const list = this.crossingsByRacer.get(crossing.racerId);
      if (list === undefined) this.crossingsByRacer.set(crossing.racerId, [crossing]);
      else list.push(crossing);
    }
    for (const list of this.crossingsByRacer.values()) list.sort(byTimeThenSeq);
    this.rebuild(input);
  }

  /** Records the crossings and moves each racer concerned within its groups. */
  addCrossings(crossings: readonly Crossing[]): Change {
    const concerned = new Set<string>();
    for (const crossing of crossings) {
      if (this.storeCrossing(crossing) && this.racers.has(crossing.racerId)) concerned.add(crossing.racerId);
    }
    const change = new ChangeBuilder();
    for (const racerId of concerned) this.recompute(racerId, change);
    return change.build(this.groupSpecs);
  }

  /** Drops every crossing of the racer ("clear all times"); they come back only if sent again. */
  clearTimes(racerId: string): Change {
    for (const crossing of this.crossingsByRacer.get(racerId) ?? []) this.seenSeqs.delete(crossing.seq);
    this.crossingsByRacer.delete(racerId);
    const change = new ChangeBuilder();
    if (this.racers.has(racerId)) this.recompute(racerId, change);
    return change.build(this.groupSpecs);
  }

  /** Adds or edits a racer; an edit can change its result and move it between groups. */
  upsertRacer(racer: Racer): Change {
    if (!this.racers.has(racer.id)) this.orderOf.set(racer.id, this.racers.size);
    this.racers.set(racer.id, racer);
    const previous = this.results.get(racer.id);
    const next = this.computeResult(racer);
    this.results.set(racer.id, next);
    const oldGroups = this.groupsByRacer.get(racer.id) ?? [];
    const newGroups = this.groupSpecs.filter((spec) => inGroup(spec, racer)).map((spec) => spec.id);
    this.groupsByRacer.set(racer.id, newGroups);

    const change = new ChangeBuilder();
    const resultChanged = previous === undefined || !sameResult(previous, next);
    for (const groupId of oldGroups) {
      if (newGroups.includes(groupId)) continue;
      removeSorted(this.membersOf(groupId), previous as RacerResult);
      change.group(groupId);
    }
    for (const groupId of newGroups) {
      if (previous !== undefined && oldGroups.includes(groupId)) {
        if (!resultChanged) continue;
        moveSorted(this.membersOf(groupId), previous, next);
      } else insertSorted(this.membersOf(groupId), next);
      change.group(groupId);
    }
    if (resultChanged || change.hasGroups()) change.racer(racer.id);
    return change.build(this.groupSpecs);
  }

  /**
   * Removes a racer (its crossings stay, for a later upsert). Racers after it move up one place in the
   * order, which is the last element of their keys, so they are recomputed and reported too.
   */
  removeRacer(racerId: string): Change {
    const removed = this.results.get(racerId);
    const change = new ChangeBuilder();
    if (removed === undefined) return change.build(this.groupSpecs);
    for (const groupId of this.groupsByRacer.get(racerId) ?? []) {
      removeSorted(this.membersOf(groupId), removed);
      change.group(groupId);
    }
    change.racer(racerId);
    const removedOrder = this.orderOf.get(racerId) as number;
    this.racers.delete(racerId);
    this.orderOf.delete(racerId);
    this.results.delete(racerId);
    this.groupsByRacer.delete(racerId);

    let order = 0;
    for (const racer of this.racers.values()) {
      if (order >= removedOrder) {
        this.orderOf.set(racer.id, order);
        this.results.set(racer.id, this.computeResult(racer));
        change.racer(racer.id);
        for (const groupId of this.groupsByRacer.get(racer.id) ?? []) change.group(groupId);
      }
      order++;
    }
    // Every order after the removed one dropped by one, so relative order holds: swap in the new results.
    for (const sorted of this.members.values()) {
      for (let i = 0; i < sorted.length; i++) sorted[i] = this.results.get((sorted[i] as RacerResult).racerId) as RacerResult;
    }
    return change.build(this.groupSpecs);
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
    return change.build([...this.groupSpecs, ...oldSpecs]);
  }

  result(racerId: string): RacerResult | undefined {
    return this.results.get(racerId);
  }

  /** The group's members sorted by key (a copy); an unknown group has none. */
  groupResults(groupId: string): RacerResult[] {
    return [...(this.members.get(groupId) ?? [])];
  }

  ranked(groupId: string): RankedResult[] {
    const threshold = this.groupSpecById.get(groupId)?.sameTimeThreshold ?? this.rules.sameTimeThreshold;
    return rankSorted(this.members.get(groupId) ?? [], threshold);
  }

  groupsOf(racerId: string): string[] {
    return [...(this.groupsByRacer.get(racerId) ?? [])];
  }

  private rebuild(input: RaceInput): void {
    this.rules = input.rules;
    this.courses = new Map(input.courses.map((course) => [course.id, course]));
    this.startGroups = new Map(input.startGroups.map((group) => [group.id, group]));
    this.groupSpecs = [...input.groups];
    this.groupSpecById = new Map(input.groups.map((spec) => [spec.id, spec]));
    this.racers = new Map();
    this.orderOf = new Map();
    for (const racer of input.racers) {
      if (!this.racers.has(racer.id)) this.orderOf.set(racer.id, this.racers.size);
      this.racers.set(racer.id, racer);
    }
    this.results = new Map();
    this.groupsByRacer = new Map();
    this.members = new Map(input.groups.map((spec) => [spec.id, []]));
    for (const racer of this.racers.values()) {
      const result = this.computeResult(racer);
      this.results.set(racer.id, result);
      const groupIds: string[] = [];
      for (const spec of this.groupSpecs) {
        if (!inGroup(spec, racer)) continue;
        groupIds.push(spec.id);
        this.membersOf(spec.id).push(result);
      }
      this.groupsByRacer.set(racer.id, groupIds);
    }
    for (const sorted of this.members.values()) sorted.sort((a, b) => compareKeys(a.key, b.key));
  }

  /** False when the seq was already seen (the same crossing sent twice). */
  private storeCrossing(crossing: Crossing): boolean {
    if (this.seenSeqs.has(crossing.seq)) return false;
    this.seenSeqs.add(crossing.seq);
    const sorted = this.crossingsByRacer.get(crossing.racerId);
    if (sorted === undefined) this.crossingsByRacer.set(crossing.racerId, [crossing]);
    else sorted.splice(crossingInsertIndex(sorted, crossing), 0, crossing);
    return true;
  }

  private computeResult(racer: Racer): RacerResult {
    // A course id the race does not have counts as no course (status-only result), as in computeFull.
    const course = racer.courseId === null ? null : (this.courses.get(racer.courseId) ?? null);
    const context = { rules: this.rules, course, startGroups: this.startGroups, order: this.orderOf.get(racer.id) as number };
    return resultForRacer(context, racer, this.crossingsByRacer.get(racer.id) ?? []);
  }

  /** Recomputes a known racer and moves it within its groups, if its result changed. */
  private recompute(racerId: string, change: ChangeBuilder): void {
    const previous = this.results.get(racerId) as RacerResult;
    const next = this.computeResult(this.racers.get(racerId) as Racer);
    if (sameResult(previous, next)) return;
    this.results.set(racerId, next);
    change.racer(racerId);
    for (const groupId of this.groupsByRacer.get(racerId) ?? []) {
      moveSorted(this.membersOf(groupId), previous, next);
      change.group(groupId);
    }
  }

  private membersOf(groupId: string): RacerResult[] {
    return this.members.get(groupId) as RacerResult[];
  }
}
