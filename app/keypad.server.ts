/**
 * The keypad page (/race/:id/admin/keypad): its form into a manual entry for the timing API, and the answer
 * a timer sees.
 */
import * as z from "zod";
import { missesText } from "../core/timing/biathlon";
import { manualEntrySchema, type ManualEntry, type ManualReceipt } from "../schema/wire/timing-api";
import { type FieldErrors } from "./racers.server";

export const bibText = z
  .string("Enter a bib number")
  .trim()
  .regex(/^\d{1,6}$/, "Enter a bib number")
  .transform(Number);

/** The keypad's plain form (before the page's script takes over): the key comes with the page, so a resent form is a duplicate. */
const keypadFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("time"), key: z.string(), bib: bibText, point: z.string().min(1, "Choose a timing point").max(64) }),
  z.object({
    intent: z.literal("status"),
    key: z.string(),
    bib: bibText,
    status: z.enum(["dns", "dnf", "dsq", "ok"], { error: "Choose a status" }),
    // Multi-run races: "" is the racer's own status, a number that run's.
    run: z
      .string()
      .default("")
      .transform((v) => (v === "" ? undefined : Number(v))),
  }),
  z.object({
    intent: z.literal("range"),
    key: z.string(),
    bib: bibText,
    shooting: z.coerce.number({ error: "Choose a shooting" }).int().min(1, "Choose a shooting"),
    misses: z.coerce.number({ error: "Choose the misses" }).int().min(0).max(5, "Misses must be 0 to 5"),
  }),
]);

export function keypadEntryFrom(form: FormData, nowMs: number): { ok: true; entry: ManualEntry } | { ok: false; errors: FieldErrors } {
  const parsed = keypadFormSchema.safeParse(Object.fromEntries([...form].filter(([, v]) => typeof v === "string")));
  if (!parsed.success) {
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
    return { ok: false, errors };
  }
  const f = parsed.data;
  const time = nowMs * 1000;
  const entry =
    f.intent === "time"
      ? { kind: "time" as const, key: f.key, bib: f.bib, point: f.point, time }
      : f.intent === "range"
        ? { kind: "range" as const, key: f.key, bib: f.bib, shooting: f.shooting, misses: f.misses }
        : {
            kind: "status" as const,
            key: f.key,
            bib: f.bib,
            status: f.status,
            ...(f.status === "dnf" || f.status === "dsq" ? { time } : {}),
            ...(f.run === undefined ? {} : { run: f.run }),
          };
  const checked = manualEntrySchema.safeParse(entry);
  return checked.success ? { ok: true, entry: checked.data } : { ok: false, errors: { form: "This form has expired; reload the page and enter it again." } };
}

/** What the keypad's plain form says after an entry. */
export function keypadOutcome(entry: ManualEntry, receipt: ManualReceipt): { notice: string | null; error: string | null } {
  const what =
    entry.kind === "time"
      ? `A time for bib ${entry.bib}`
      : entry.kind === "range"
        ? `${missesText(entry.misses)} at shooting ${entry.shooting} for bib ${entry.bib}`
        : `${entry.status.toUpperCase()}${entry.run === undefined ? "" : ` in run ${entry.run}`} for bib ${entry.bib}`;
  if (receipt.duplicates > 0) return { notice: `${what} was already recorded.`, error: null };
  if (receipt.unknown_bibs.length > 0) return { notice: null, error: `${what} is recorded, but no racer has bib ${entry.bib}.` };
  return { notice: `${what} is recorded.`, error: null };
}

// ---- Downloads ----

/** A download's file name from the race's name ("spring-classic-start-list"): ASCII letters and digits only, so any header carries it. */
export function downloadName(raceName: string, what: string): string {
  const slug = `${raceName}-${what}`
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 80);
  return slug || what;
}

/** A CSV file download named after the race ("spring-classic-start-list.csv"); never cached, it holds racers' details. */
export function csvDownload(csv: string, raceName: string, what: string): Response {
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${downloadName(raceName, what)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
