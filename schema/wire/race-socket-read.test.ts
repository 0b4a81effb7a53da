/**
 * The browser's hand-written frame reader against the zod schema it stands in for (fast-check): on valid
 * frames drawn from the schema itself and on the same frames mutated (keys dropped, added, values swapped
 * for garbage), both accept or both refuse, and what they return is the same value. The frames are drawn by
 * walking raceServerMessageSchema, so a field the schema gains is drawn at once and the reader must follow.
 */
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import type * as core from "zod/v4/core";
import { raceServerMessageSchema } from "./race-socket";
import { readRaceFrame } from "./race-socket-read";
import { readRaceServerMessage } from "./race-socket-read-all";
import { HEATS_FRAMES } from "./race-socket-read-heats";
import { SNAPSHOT_FRAMES } from "./race-socket-read-snapshot";
import { fcParams } from "../../core/testing/fast-check";

/** Leaf candidates, kept when the leaf's own schema takes them, so every check on it (int, nonnegative, …) holds. */
const NUMBERS = fc.oneof(fc.nat(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0, 2 ** 53 - 1));

/** Every literal and enum value of the schema: garbage that is nearly right (a kind, a status) in the wrong place. */
const schemaWords = new Set<string | number | boolean>();

/** Values the schema accepts, lists of `items` length; a kind of schema the walk does not know fails loudly, so the walk is extended with it. */
function valid(schema: core.$ZodType, items: { minLength: number; maxLength: number }): fc.Arbitrary<unknown> {
  const def = (schema as core.$ZodTypes)._zod.def;
  const leaf = (candidates: fc.Arbitrary<unknown>) => candidates.filter((v) => z.safeParse(schema, v).success);
  switch (def.type) {
    case "object": {
      const shape = Object.entries(def.shape);
      const model = Object.fromEntries(shape.map(([key, field]) => [key, valid(field, items)]));
      const requiredKeys = shape.filter(([, field]) => field._zod.optin !== "optional").map(([key]) => key);
      return fc.record(model, { requiredKeys });
    }
    case "optional":
      // Present or absent is the object's choice (requiredKeys); a present value is the inner one.
      return valid(def.innerType, items);
    case "nullable":
      return fc.option(valid(def.innerType, items), { nil: null, freq: 3 });
    case "array":
      return fc.array(valid(def.element, items), items);
    case "union":
      return fc.oneof(...def.options.map((option) => valid(option, items)));
    case "literal":
      def.values.forEach((v) => v !== null && v !== undefined && typeof v !== "bigint" && schemaWords.add(v));
      return fc.constantFrom(...def.values);
    case "enum": {
      const values = Object.values(def.entries);
      values.forEach((v) => schemaWords.add(v));
      return fc.constantFrom(...values);
    }
    case "string":
      return leaf(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("", "1", "v.7")));
    case "number":
      return leaf(NUMBERS);
    case "boolean":
      return fc.boolean();
    default:
      throw new Error(`race-socket-read.test.ts draws no ${def.type} schema yet: extend valid() and the reader`);
  }
}

const validFrame = valid(raceServerMessageSchema, { minLength: 0, maxLength: 3 });
/** Lists of exactly one item: every field of every level drawn, few enough places to change each one. */
const smallFrame = valid(raceServerMessageSchema, { minLength: 1, maxLength: 1 });

/** What JSON.parse may hand the reader (1e400 is Infinity) and what it may not, as zod is asked about any value. */
const garbage: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, undefined, true, false, 0, -0, -1, 1.5, 2 ** 53, NaN, Infinity, -Infinity, "", [], {}),
  fc.constantFrom(...schemaWords),
  fc.string({ maxLength: 4 }),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }),
);

/** What a single swap puts in each place: a wrong type, or a number just outside what the field takes. */
const SWAPS: unknown[] = [null, undefined, -1, -0, 0.5, 2 ** 53, Infinity, "", "x", true, [], {}];

type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number };

/** Every place in a frame that holds a value (object fields and array items), depth first. */
function slots(value: unknown, out: Slot[] = []): Slot[] {
  if (Array.isArray(value)) {
    value.forEach((item, key) => {
      out.push({ parent: value, key });
      slots(item, out);
    });
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.push({ parent: value as Record<string, unknown>, key });
      slots(item, out);
    }
  }
  return out;
}

const mutation = fc.record({
  kind: fc.constantFrom("drop", "replace", "add", "undefined"),
  at: fc.nat(),
  name: fc.oneof(fc.constantFrom("type", "version", "rows", "biathlon", "extra"), fc.string({ maxLength: 4 })),
  value: garbage,
});
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

/** The frame with one change at the `at`-th slot: its value dropped, swapped or set undefined, or a key added beside it. */
function mutate(frame: unknown, { kind, at, name, value }: Mutation): unknown {
  const root = { frame: structuredClone(frame) };
  const all = slots(root);
  const { parent, key } = all[at % all.length]!;
  if (kind === "add") {
    const target = parent[key as never] as unknown;
    if (typeof target === "object" && target !== null && !Array.isArray(target)) (target as Record<string, unknown>)[name] = value;
    else (parent as Record<string, unknown>)[key] = value;
  } else if (kind === "drop") {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else {
    (parent as Record<string | number, unknown>)[key] = kind === "undefined" ? undefined : value;
  }
  return root.frame;
}

/** Both readings of one value: the same message, or both null. */
function expectAgreement(value: unknown): void {
  const byZod = raceServerMessageSchema.safeParse(value);
  const expected = byZod.success ? byZod.data : null;
  const read = readRaceServerMessage(value);
  // Checked first so the message (the frame as JSON) is only built for a disagreement.
  if (!isDeepStrictEqual(read, expected)) expect(read, JSON.stringify(value)).toStrictEqual(expected);
}

describe("readRaceServerMessage reads frames as raceServerMessageSchema does", () => {
  it("accepts every valid frame and returns what zod returns", () => {
    fc.assert(
      fc.property(validFrame, (frame) => {
        expect(raceServerMessageSchema.safeParse(frame).success, "the walk draws frames the schema takes").toBe(true);
        expectAgreement(frame);
      }),
      fcParams(300),
    );
  });

  it("agrees with zod on frames with one to three changes", () => {
    fc.assert(
      fc.property(validFrame, fc.array(mutation, { minLength: 1, maxLength: 3 }), (frame, changes) => {
        expectAgreement(changes.reduce(mutate, frame));
      }),
      fcParams(500),
    );
  });

  it("agrees with zod on every frame one swap or drop away, at every place of the frame", () => {
    fc.assert(
      fc.property(smallFrame, (frame) => {
        const places = slots({ frame }).length;
        for (let at = 0; at < places; at++) {
          expectAgreement(mutate(frame, { kind: "drop", at, name: "", value: null }));
          for (const value of SWAPS) expectAgreement(mutate(frame, { kind: "replace", at, name: "", value }));
        }
      }),
      fcParams(30),
    );
    // About 14,000 frames read by each side: may outlast vitest's 5 s default on a busy machine.
  }, 30_000);

  it("agrees with zod on values that are no frame at all", () => {
    const kinds = fc.constantFrom("hello", "pong", "info", "error", "snapshot", "refresh", "rows", "heats", "announcer", "ping", "");
    const typed = fc.tuple(kinds, fc.dictionary(fc.string({ maxLength: 6 }), garbage, { maxKeys: 4 })).map(([type, rest]) => ({ ...rest, type }));
    fc.assert(fc.property(fc.oneof(garbage, typed), expectAgreement), fcParams());
  });

  it("strips keys the schema does not name, keeps a present optional's undefined and refuses holes, as zod does", () => {
    const hello = { type: "hello", race_id: "r", name: "Race", server_time: 1.5, connections: 0 };
    expectAgreement({ ...hello, extra: 1, version: "3" });
    expectAgreement({ ...hello, version: undefined });
    expectAgreement({ ...hello, connections: 2 ** 53 });
    expectAgreement({ ...hello, server_time: Infinity });
    expectAgreement(JSON.parse('{"type":"pong","__proto__":{"type":"x"}}'));
    // eslint-disable-next-line no-sparse-arrays
    expectAgreement({ type: "rows", formatId: "f", from: "1", version: "2", rows: [, ,] });
    expect(readRaceServerMessage({ ...hello, extra: 1 })).toStrictEqual(hello);
  });
});

describe("readRaceFrame reads only the large frames a page names", () => {
  it("reads every frame as readRaceServerMessage does, except snapshots and heats it was not given readers for", () => {
    fc.assert(
      fc.property(validFrame, (frame) => {
        const full = readRaceServerMessage(frame);
        const type = (frame as { type: string }).type;
        const wholeFormat = type === "snapshot" || type === "patch";
        expect(readRaceFrame(frame, {})).toStrictEqual(wholeFormat || type === "heats" ? null : full);
        expect(readRaceFrame(frame, SNAPSHOT_FRAMES)).toStrictEqual(type === "heats" ? null : full);
        expect(readRaceFrame(frame, HEATS_FRAMES)).toStrictEqual(wholeFormat ? null : full);
      }),
      fcParams(200),
    );
  });
});
