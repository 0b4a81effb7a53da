/**
 * A keypad entry (docs/api/timing-api.md), in its own module and in zod/mini because the keypad page reads
 * its outbox with it in the browser. Full zod there would also put the classic API's share of zod's core
 * into the chunk every zod/mini page shares, the public results page among them (issue 29: +8 KiB gzip).
 * Same checks and messages as the full API (one core); timing-api.ts re-exports it for the server.
 */
import * as z from "zod/mini";
import { BIATHLON_MAX_MISSES, BIATHLON_MAX_SHOOTINGS } from "../../core/timing/biathlon";
import { MAX_RUNS } from "../../core/timing/multi-run";

/** Time of day on the race's day, in the race's time zone (a device read's `tod` too). */
export const TIME_OF_DAY_PATTERN = /^\d{1,2}:\d{2}:\d{2}(\.\d{1,6})?$/;
export const TIME_OF_DAY_MESSAGE = "tod must be HH:MM:SS with up to 6 decimals";

const timeOfDay = z.string().check(z.regex(TIME_OF_DAY_PATTERN, TIME_OF_DAY_MESSAGE));
// z.int() is the full API's z.number().int(): the same whole-number check, made first.
const wholeNumber = (min: number, max: number) => z.int().check(z.gte(min), z.lte(max));
const bib = wholeNumber(0, 999_999);
const microsSinceEpoch = z.int().check(z.gte(0));

const manualKey = z.string().check(z.minLength(8), z.maxLength(64), z.regex(/^[\w-]+$/, "key must be letters, digits, - or _"));
/** Which of a serverbox's paired phones keyed the entry (its id on the box); kept only when a serverbox sends it. */
const keypad = z.optional(z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[\w-]+$/, "keypad must be letters, digits, - or _")));

const shooting = wholeNumber(1, BIATHLON_MAX_SHOOTINGS);
const misses = z.int().check(z.gte(0, "Misses must be 0 to 5"), z.lte(BIATHLON_MAX_MISSES, "Misses must be 0 to 5"));

/** A keypad entry: a bib crossing a timing point, a status change, or a biathlon shooting's misses. `key` makes a retried send harmless. */
export const manualEntrySchema = z.discriminatedUnion("kind", [
  z
    .strictObject({
      kind: z.literal("time"),
      key: manualKey,
      keypad,
      bib,
      point: z.string().check(z.minLength(1), z.maxLength(64)),
      time: z.optional(microsSinceEpoch),
      tod: z.optional(timeOfDay),
    })
    .check(z.refine((entry) => (entry.time === undefined) !== (entry.tod === undefined), { error: "Each entry needs a time or a tod, not both" })),
  z.strictObject({
    kind: z.literal("status"),
    key: manualKey,
    keypad,
    bib,
    status: z.enum(["dns", "dnf", "dsq", "ok"]),
    time: z.optional(microsSinceEpoch),
    /** Multi-run: the run the status is for (dnf_{n}_time, dsq_{n}_time, is_dns_{n}); without it, the racer's. */
    run: z.optional(wholeNumber(1, MAX_RUNS)),
  }),
  z.strictObject({ kind: z.literal("range"), key: manualKey, keypad, bib, shooting, misses }),
]);
export type ManualEntry = z.infer<typeof manualEntrySchema>;

/** How a serverbox is named as the keyer of the entries it forwards (workers/timing-api): `serverbox:<server id>`. */
export const SERVERBOX_KEYER = "serverbox:";

/**
 * Who keyed an entry, as the race keeps it: the caller (a user's id, or `serverbox:<id>` for a box's own keypad),
 * with `/<keypad>` for one of a box's phones. A phone's id counts only from a box: anyone else could name any phone.
 */
export function keyerOf(caller: string, entry: ManualEntry): string {
  return caller.startsWith(SERVERBOX_KEYER) && entry.keypad !== undefined ? `${caller}/${entry.keypad}` : caller;
}
