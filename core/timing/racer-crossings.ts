/**
 * Each racer's crossings, sorted by time then seq, packed three numbers a crossing (time, seq, timing point)
 * into one array of numbers per racer. A big race holds hundreds of thousands of reads for its whole life:
 * as objects, each with its own id strings as storage hands them over, they cost about six times as much
 * and gave the collector an object per read to mark (decision 0096). Crossings are rebuilt as objects only
 * for the racer being computed.
 */
import type { Crossing } from "./model";

/** Numbers per crossing in a racer's list: time, seq, timing point number. */
const STRIDE = 3;

export class RacerCrossings {
  /** Timing point number → id; few per race, so each id is held once. */
  private readonly pointIds: string[] = [];
  private readonly pointNumbers = new Map<string, number>();
  private readonly lists = new Map<string, number[]>();

  /**
   * Appends without keeping the order, for a bulk load; `sortAll` restores it. `racerId` is the string the
   * list is kept under: the racer's own id when the race has them, so a read's copy of it is not kept.
   */
  append(crossing: Crossing, racerId: string): void {
    const list = this.lists.get(racerId);
    const point = this.pointNumber(crossing.timingPointId);
    if (list === undefined) this.lists.set(racerId, [crossing.time, crossing.seq, point]);
    else list.push(crossing.time, crossing.seq, point);
  }

  /** Sorts every list appended to, each into an array of its exact length (appending leaves room to grow). */
  sortAll(): void {
    for (const [racerId, list] of this.lists) this.lists.set(racerId, isSorted(list) ? list.slice() : sortedList(list));
  }

  /** Inserts a live crossing at its place in the racer's list. */
  insert(crossing: Crossing, racerId: string): void {
    const list = this.lists.get(racerId);
    const point = this.pointNumber(crossing.timingPointId);
    if (list === undefined) this.lists.set(racerId, [crossing.time, crossing.seq, point]);
    else list.splice(insertIndex(list, crossing.time, crossing.seq) * STRIDE, 0, crossing.time, crossing.seq, point);
  }

  /** The racer's crossings as objects, sorted by time then seq (a new array each call). */
  of(racerId: string): Crossing[] {
    const list = this.lists.get(racerId);
    if (list === undefined) return [];
    const crossings: Crossing[] = new Array<Crossing>(list.length / STRIDE);
    for (let i = 0, at = 0; at < list.length; i++, at += STRIDE) {
      crossings[i] = { seq: list[at + 1]!, racerId, timingPointId: this.pointIds[list[at + 2]!]!, time: list[at]! };
    }
    return crossings;
  }

  /** Drops the racer's crossings and returns their seqs. */
  remove(racerId: string): number[] {
    const list = this.lists.get(racerId);
    if (list === undefined) return [];
    this.lists.delete(racerId);
    const seqs: number[] = [];
    for (let at = 1; at < list.length; at += STRIDE) seqs.push(list[at]!);
    return seqs;
  }

  private pointNumber(timingPointId: string): number {
    let number = this.pointNumbers.get(timingPointId);
    if (number === undefined) {
      number = this.pointIds.length;
      this.pointIds.push(timingPointId);
      this.pointNumbers.set(timingPointId, number);
    }
    return number;
  }
}

/** Whether crossing `a` (at list offset) comes before crossing `b`, by time then seq. */
function before(list: readonly number[], a: number, b: number): boolean {
  return list[a]! < list[b]! || (list[a] === list[b] && list[a + 1]! < list[b + 1]!);
}

function isSorted(list: readonly number[]): boolean {
  for (let at = STRIDE; at < list.length; at += STRIDE) {
    if (before(list, at, at - STRIDE)) return false;
  }
  return true;
}

function sortedList(list: readonly number[]): number[] {
  const offsets = Array.from({ length: list.length / STRIDE }, (_, i) => i * STRIDE);
  offsets.sort((a, b) => list[a]! - list[b]! || list[a + 1]! - list[b + 1]!);
  return offsets.flatMap((at) => [list[at]!, list[at + 1]!, list[at + 2]!]);
}

/** The number of crossings in the list that come before (time, seq). */
function insertIndex(list: readonly number[], time: number, seq: number): number {
  let low = 0;
  let high = list.length / STRIDE;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = middle * STRIDE;
    if (list[at]! < time || (list[at] === time && list[at + 1]! < seq)) low = middle + 1;
    else high = middle;
  }
  return low;
}
