/**
 * The block list against a plain sorted array: fast-check runs random inserts, removes and moves (small
 * blocks, so they split and merge all the time) and checks order, size and positions after every step;
 * a failure shrinks to a short sequence. Unit tests pin the edge cases.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderedList } from "./ordered-results";
import { fcParams } from "../testing/fast-check";

const byNumber = (a: number, b: number) => a - b;

type Op = { kind: "insert"; value: number } | { kind: "remove"; value: number } | { kind: "replace"; previous: number; next: number };

/** Values from a small range, so present and absent values, equal ones and neighbours all come up. */
const value = fc.integer({ min: 0, max: 40 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("insert" as const), value }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("remove" as const), value }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("replace" as const), previous: value, next: value }), weight: 3 },
);

/** Applies one step to the model (a sorted array); what the list must return, or "throws". */
function applyToModel(model: number[], step: Op): number | undefined | "throws" {
  if (step.kind === "insert") {
    if (model.includes(step.value)) return "throws";
    model.push(step.value);
    model.sort(byNumber);
    return undefined;
  }
  if (step.kind === "remove") {
    const at = model.indexOf(step.value);
    if (at < 0) return undefined;
    model.splice(at, 1);
    return step.value;
  }
  const at = model.indexOf(step.previous);
  if (at < 0) return undefined;
  if (step.next !== step.previous && model.includes(step.next)) return "throws";
  model.splice(at, 1);
  model.push(step.next);
  model.sort(byNumber);
  return step.previous;
}

function applyToList(list: OrderedList<number>, step: Op): number | undefined | "throws" {
  try {
    if (step.kind === "insert") {
      list.insert(step.value);
      return undefined;
    }
    if (step.kind === "remove") return list.remove(step.value);
    return list.replace(step.previous, step.next);
  } catch {
    return "throws";
  }
}

/** Everything observable about the list matches the model, and the blocks keep their bounds. */
function expectSameAsModel(list: OrderedList<number>, model: readonly number[], maxBlock: number): void {
  expect(list.toArray()).toEqual(model);
  expect(list.size).toBe(model.length);
  const lengths = list.blockLengths();
  expect(lengths.reduce((sum, length) => sum + length, 0)).toBe(model.length);
  for (const length of lengths) {
    expect(length).toBeGreaterThan(0);
    expect(length).toBeLessThanOrEqual(maxBlock);
    // Merges keep blocks at least a quarter full, once there is more than one.
    if (lengths.length > 1) expect(length).toBeGreaterThanOrEqual(Math.max(1, maxBlock >> 2));
  }
  model.forEach((item, i) => {
    expect(list.indexOf(item)).toBe(i);
    expect(list.at(i)).toBe(item);
    expect(list.get(item)).toBe(item);
  });
  for (let missing = -1; missing <= 41; missing++) {
    if (!model.includes(missing)) expect(list.indexOf(missing)).toBe(-1);
  }
  expect(list.at(-1)).toBeUndefined();
  expect(list.at(model.length)).toBeUndefined();
}

describe("OrderedList against a sorted array", () => {
  it("agrees after every insert, remove and move", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.uniqueArray(value, { maxLength: 30 }), fc.array(op, { maxLength: 120 }), (maxBlock, initial, ops) => {
        const model = [...initial].sort(byNumber);
        const list = OrderedList.fromSorted(byNumber, model, maxBlock);
        expectSameAsModel(list, model, maxBlock);
        for (const step of ops) {
          expect(applyToList(list, step), JSON.stringify(step)).toBe(applyToModel(model, step));
          expectSameAsModel(list, model, maxBlock);
        }
      }),
      fcParams(300),
    );
  });
});

describe("OrderedList", () => {
  it("is empty to start with", () => {
    const list = new OrderedList(byNumber, 4);
    expect(list.size).toBe(0);
    expect(list.toArray()).toEqual([]);
    expect(list.blockLengths()).toEqual([]);
    expect(list.at(0)).toBeUndefined();
    expect(list.indexOf(1)).toBe(-1);
    expect(list.get(1)).toBeUndefined();
    expect(list.remove(1)).toBeUndefined();
    expect(list.replace(1, 2)).toBeUndefined();
    expect(list.size).toBe(0);
    expect(OrderedList.fromSorted(byNumber, []).blockLengths()).toEqual([]);
  });

  it("keeps a small list in one block", () => {
    const list = new OrderedList(byNumber, 8);
    for (const n of [5, 1, 9, 3, 7]) list.insert(n);
    expect(list.toArray()).toEqual([1, 3, 5, 7, 9]);
    expect(list.blockLengths()).toEqual([5]);
    expect(list.indexOf(7)).toBe(3);
    expect(list.at(4)).toBe(9);
  });

  it("splits a block that grows past maxBlock into halves", () => {
    const list = new OrderedList(byNumber, 4);
    for (const n of [1, 2, 3, 4]) list.insert(n);
    expect(list.blockLengths()).toEqual([4]);
    list.insert(5);
    expect(list.blockLengths()).toEqual([2, 3]);
    expect(list.toArray()).toEqual([1, 2, 3, 4, 5]);
    expect(list.indexOf(4)).toBe(3);
    expect(list.at(2)).toBe(3);
  });

  it("merges a block that falls under a quarter of maxBlock into its neighbour", () => {
    const list = OrderedList.fromSorted(byNumber, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 8);
    expect(list.blockLengths()).toEqual([3, 3, 4]);
    list.remove(1);
    expect(list.blockLengths()).toEqual([2, 3, 4]);
    list.remove(2);
    expect(list.blockLengths()).toEqual([4, 4]);
    expect(list.toArray()).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    // The last block merges into the one before it.
    for (const n of [8, 9, 10]) list.remove(n);
    expect(list.blockLengths()).toEqual([5]);
  });

  it("halves a merge that would overflow", () => {
    const list = OrderedList.fromSorted(byNumber, [10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 8);
    for (const n of [41, 42, 43, 44, 45]) list.insert(n);
    expect(list.blockLengths()).toEqual([3, 8, 4]);
    list.remove(10);
    list.remove(20);
    expect(list.blockLengths()).toEqual([4, 5, 4]);
    expect(list.toArray()).toEqual([30, 40, 41, 42, 43, 44, 45, 50, 60, 70, 80, 90, 100]);
    expect(list.at(4)).toBe(43);
  });

  it("appends above every item to the last block, splitting it when full", () => {
    const list = OrderedList.fromSorted(byNumber, [1, 2, 3, 4], 4);
    expect(list.blockLengths()).toEqual([2, 2]);
    for (const n of [5, 6, 7]) list.insert(n);
    expect(list.blockLengths()).toEqual([2, 2, 3]);
    expect(list.indexOf(7)).toBe(6);
  });

  it("drops a block it empties, down to none", () => {
    const list = OrderedList.fromSorted(byNumber, [1, 2], 2);
    expect(list.blockLengths()).toEqual([1, 1]);
    expect(list.remove(1)).toBe(1);
    expect(list.blockLengths()).toEqual([1]);
    expect(list.remove(2)).toBe(2);
    expect(list.blockLengths()).toEqual([]);
    list.insert(3);
    expect(list.toArray()).toEqual([3]);
  });

  it("moves an item in place when it stays between its neighbours, across blocks otherwise", () => {
    const list = OrderedList.fromSorted(byNumber, [10, 20, 30, 40, 50, 60], 4);
    expect(list.blockLengths()).toEqual([2, 2, 2]);
    expect(list.replace(30, 35)).toBe(30);
    expect(list.blockLengths()).toEqual([2, 2, 2]);
    expect(list.replace(35, 65)).toBe(35);
    expect(list.toArray()).toEqual([10, 20, 40, 50, 60, 65]);
    expect(list.blockLengths()).toEqual([2, 1, 3]);
    expect(list.replace(65, 5)).toBe(65);
    expect(list.toArray()).toEqual([5, 10, 20, 40, 50, 60]);
    expect(list.indexOf(40)).toBe(3);
  });

  it("refuses an item equal to one it holds, changing nothing", () => {
    const list = OrderedList.fromSorted(byNumber, [1, 2, 3], 4);
    expect(() => list.insert(2)).toThrow(/equal item/);
    expect(() => list.replace(1, 3)).toThrow(/equal item/);
    expect(list.toArray()).toEqual([1, 2, 3]);
    expect(list.replace(2, 2)).toBe(2);
  });

  it("returns the stored item, which may differ from the one compared", () => {
    const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
    const stored = { key: 1, name: "stored" };
    const list = OrderedList.fromSorted<{ key: number }>(byKey, [stored]);
    expect(list.get({ key: 1 })).toBe(stored);
    expect(list.remove({ key: 1 })).toBe(stored);
  });

  it("rejects a block size below 2", () => {
    expect(() => new OrderedList(byNumber, 1)).toThrow(RangeError);
    expect(() => OrderedList.fromSorted(byNumber, [1], 2.5)).toThrow(RangeError);
  });
});
