/**
 * Cross-field rules of the admin areas' entities (issue 25), run on the entity as it would be stored by the
 * entity service for both the data API and the administration pages. The spec gives these entities no
 * messages; the words here are ours (docs/decisions/0032-administration-from-the-registry.md).
 */
import { colourProblems } from "../../core/sites/contrast";
import { siteConfigSchema } from "../../schema/wire/site-config";
import type { WriteRule } from "./entity-rules";

type Problems = Record<string, string> | null;
const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const problems = (found: Record<string, string>): Problems => (Object.keys(found).length > 0 ? found : null);

/** ISO dates compare as text. */
function dateOrder(next: Readonly<Record<string, unknown>>, first: string, last: string, message: string): Problems {
  const from = text(next[first]);
  const until = text(next[last]);
  return from && until && until < from ? { [last]: message } : null;
}

export const eventPageRule: WriteRule = async (_db, _id, next) => dateOrder(next, "start_date", "end_date", "The end date must be on or after the start date");

export const passRule: WriteRule = async (_db, _id, next) => dateOrder(next, "valid_from", "valid_until", "The last valid day must be on or after the first");

export const validationSystemRule: WriteRule = async (_db, _id, next) =>
  next.kind === "pattern" && !text(next.pattern) ? problems({ pattern: "Enter the pattern valid numbers must match" }) : null;

/** A sent newsletter is a record of what members received, so it stays as it was sent. */
export const newsletterRule: WriteRule = async (_db, _id, next) =>
  typeof next.sent_time === "number" ? problems({ form: "This newsletter has been sent and can no longer be changed" }) : null;

/** A site's colours must stay readable (core/sites/contrast.ts); problems are keyed by the config path. */
export const siteRule: WriteRule = async (_db, _id, next) => {
  const parsed = siteConfigSchema.safeParse(next.config);
  if (!parsed.success) return null; // The field's own schema has refused it already.
  const found = colourProblems(parsed.data.colours);
  return problems(Object.fromEntries(Object.entries(found).map(([colour, message]) => [`config.colours.${colour}`, message])));
};
