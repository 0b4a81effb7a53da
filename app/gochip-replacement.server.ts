/**
 * The racer page's "Replace chip" form (decision 0068): its zod shape and the call to the replacement
 * service, which writes the racer through the race's RaceRoom. The page's guard (race edit) ran before.
 */
import * as z from "zod";
import { normaliseHex, REPLACEMENT_REASONS } from "../core/gochips/chips";
import { fieldErrorsOf } from "../core/entity/field-errors";
import { isInvalid } from "../core/time/parse";
import { openDb } from "../schema/d1";
import { replaceChip, replacementsOf } from "../workers/services/gochip-replacements";
import type { RaceAccess } from "./race-admin.server";

const replaceSchema = z.object({
  submission: z.uuid("Please reload the page and try again"),
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

export type ReplaceReply = { ok: true } | { ok: false; status: 400 | 404; errors: Record<string, string> };

/** The form's values replaced on the racer once per form sent. */
export async function replaceRacerChip(access: RaceAccess, env: Env, racerId: string, form: FormData): Promise<ReplaceReply> {
  const values = Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const parsed = replaceSchema.safeParse(values);
  if (!parsed.success) return { ok: false, status: 400, errors: fieldErrorsOf(parsed.error.issues) };
  const v = parsed.data;
  return replaceChip(openDb(env.DB), access.race, access.room, {
    submission: v.submission,
    racerId,
    newChip: v.new_chip,
    reason: v.reason,
    // A page is always signed in; the author is only null for the room's own writes.
    userId: access.author.userId ?? "",
  });
}

/** The racer's replacement sessions, for the page. */
export async function racerReplacements(env: Env, raceId: string, racerId: string) {
  const rows = await replacementsOf(openDb(env.DB), raceId, [racerId]);
  return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString().slice(0, 16).replace("T", " ") }));
}
