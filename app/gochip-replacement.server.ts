/**
 * The "Replace chip" forms (decisions 0068, 0073): the racer page's (the racer named by the page) and the
 * timer's page's (the racer by bib), one zod shape and one call to the replacement service, which checks
 * who may (`replace_chip`) and writes the racer through the race's RaceRoom.
 */
import * as z from "zod";
import { normaliseHex, REPLACEMENT_REASONS } from "../core/gochips/chips";
import { fieldErrorsOf } from "../core/entity/field-errors";
import { isInvalid } from "../core/time/parse";
import { openDb } from "../schema/d1";
import { replaceChip, replacementsOf, type ReplacementOutcome } from "../workers/services/gochip-replacements";
import { submissionId } from "./forms/field-rules";
import { bibText } from "./keypad.server";
import type { RaceAccess } from "./race-admin.server";

const replaceSchema = z.object({
  submission: submissionId,
  new_chip: z
    .string("Scan or type the new chip's hex code")
    .max(100)
    .transform((text, ctx) => {
      const code = normaliseHex(text);
      if (!isInvalid(code)) return code;
      ctx.addIssue({ code: "custom", message: code.error });
      return z.NEVER;
    }),
  reason: z.enum(REPLACEMENT_REASONS, "Choose why the chip is replaced: lost or faulty"),
});
// The timer's page names the racer by bib; the racer page by its address (a bib sent there is ignored).
const byBibSchema = replaceSchema.extend({ bib: bibText });

export type ReplaceReply = ReplacementOutcome;

/** A posted form's text fields (the racer page reads its form itself). */
export const valuesOf = (form: FormData) => Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === "string"));

/** The form's values replaced on the racer (by id, or by the bib typed) once per form sent. */
export async function replaceRacerChip(access: RaceAccess, env: Env, racerId: string | null, values: Record<string, string>): Promise<ReplaceReply> {
  const parsed = byBibSchema.partial({ bib: true }).safeParse(values);
  if (!parsed.success) return { ok: false, status: 400, errors: fieldErrorsOf(parsed.error.issues) };
  const v = parsed.data;
  const racer = racerId !== null ? { id: racerId } : v.bib !== undefined ? { bib: v.bib } : null;
  if (racer === null) return { ok: false, status: 400, errors: { bib: "Enter a bib number" } };
  return replaceChip(env, openDb(env.DB), access.principal, access.race, access.room, {
    submission: v.submission,
    racer,
    newChip: v.new_chip,
    reason: v.reason,
    // A page is always signed in; the author is only null for the room's own writes.
    userId: access.author.userId ?? "",
  });
}

/** The racer's replacement sessions (null: the whole race's latest), for the page. */
export async function racerReplacements(env: Env, raceId: string, racerId: string | null) {
  const rows = await replacementsOf(openDb(env.DB), raceId, racerId === null ? null : [racerId]);
  return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString().slice(0, 16).replace("T", " ") }));
}
