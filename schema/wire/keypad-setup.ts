/**
 * What a serverbox's web keypad page gives its script (decision 0084): the race, its timing points and what
 * the keypad offers. zod/mini, as the script runs in the browser (manual-entry.ts says why).
 */
import * as z from "zod/mini";

export const keypadSetupSchema = z.object({
  raceId: z.string(),
  raceName: z.string(),
  timezone: z.string(),
  points: z.array(z.object({ id: z.string(), name: z.string() })),
  shootings: z.int().check(z.gte(0)),
  runs: z.int().check(z.gte(0)),
});
export type KeypadSetup = z.infer<typeof keypadSetupSchema>;
