/**
 * Background jobs through the startline-jobs queue: work that follows a response and must not be lost when it
 * fails (the race's room busy or restarting). A job is retried after a growing wait (queue-retry.ts, decision 0094) up to max_retries
 * (wrangler.toml); a job that can never succeed (a malformed message, a form no longer linked) is dropped.
 * Every job is safe to run twice: entering racers finds them by the person they came from.
 */
import { and, eq } from "drizzle-orm";
import * as z from "zod";
import { formElements, openDb, registrations, type Db } from "../schema/d1";
import { recordMembers } from "./services/memberships";
import { dispatchNewsletter } from "./services/newsletters";
import { issueSeasonPasses } from "./services/season-passes";
import { RACER_SYNC_MESSAGES, syncRegistrationRacers } from "./services/registration-racers";
import { chipWritesSchema, replacementRecordSchema } from "./services/chip-writes";
import { recordReplacement } from "./services/gochip-replacements";
import { writeChips } from "./services/racer-chips";
import { retryLater } from "./queue-retry";

export const JOBS_QUEUE_NAME = "startline-jobs";

const cartIds = z.array(z.string().max(64)).max(100).nullable();
export const jobSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("enter-racers"), registrationId: z.uuid(), cartIds }),
  z.object({ kind: z.literal("record-members"), registrationId: z.uuid(), cartIds }),
  z.object({ kind: z.literal("issue-passes"), registrationId: z.uuid(), cartIds }),
  z.object({ kind: z.literal("dispatch-newsletter"), newsletterId: z.uuid() }),
  // The depots' chips of racers the RaceRoom saved, when D1 refused them at the time (decision 0083).
  chipWritesSchema.extend({ kind: z.literal("chip-writes") }),
  replacementRecordSchema.extend({ kind: z.literal("chip-replacement") }),
]);
export type Job = z.infer<typeof jobSchema>;

export async function enqueueJob(env: Env, job: Job): Promise<void> {
  await env.JOBS_QUEUE.send(job);
}

/** done: acknowledge; retry: it may work later; drop: it never will. */
export async function runJob(env: Env, body: unknown): Promise<"done" | "retry" | "drop"> {
  const parsed = jobSchema.safeParse(body);
  if (!parsed.success) {
    console.error("Dropping malformed job", parsed.error.issues);
    return "drop";
  }
  const job = parsed.data;
  const db = openDb(env.DB);
  if (job.kind === "chip-writes") return retried("Writing the depots' chips", job.raceId, () => writeChips(db, job));
  if (job.kind === "chip-replacement") return retried("Recording a chip replacement", job.raceId, () => recordReplacement(db, job));
  if (job.kind === "dispatch-newsletter")
    return retried("Dispatching a newsletter", job.newsletterId, () => dispatchNewsletter(env, db, job.newsletterId, Date.now()));
  if (job.kind === "issue-passes")
    return retried("Issuing season passes", job.registrationId, () => issueSeasonPasses(env, db, job.registrationId, job.cartIds, Date.now()));
  if (job.kind === "record-members")
    return retried("Recording members", job.registrationId, async () => {
      const outcome = await recordMembers(env, db, job.registrationId, job.cartIds, Date.now());
      if (outcome.unplaced > 0) console.warn("Memberships with no division or season to go to", job.registrationId, outcome.unplaced);
    });
  try {
    const result = await syncRegistrationRacers(env, db, job.registrationId, job.cartIds);
    if (result.ok) return "done";
    // Unlinked or linked to a race that is gone: the organiser's next link and "Re-sync" enter everyone.
    if (result.error === RACER_SYNC_MESSAGES.noRace || result.error === RACER_SYNC_MESSAGES.raceGone) return "drop";
    console.error("Racer sync refused; will retry", job.registrationId, result.error);
    return "retry";
  } catch (error) {
    console.error("Racer sync failed; will retry", job.registrationId, error);
    return "retry";
  }
}

/** Work that may succeed later (D1 or a room busy a moment): a failure is logged and the job retried. */
async function retried(what: string, id: string, work: () => Promise<unknown>): Promise<"done" | "retry"> {
  try {
    await work();
    return "done";
  } catch (error) {
    console.error(`${what} failed; will retry`, id, error);
    return "retry";
  }
}

export async function runJobBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const outcome = await runJob(env, message.body);
    if (outcome === "retry") retryLater(message);
    else message.ack();
  }
}

/**
 * After a cart completes: its people are entered in the form's race, and its memberships recorded in the
 * club's division, and its season passes issued, by queued jobs, so a failure is retried rather than lost. A form with none queues nothing.
 */
export function afterCartCompleted(env: Env, db: Db, waitUntil: (promise: Promise<unknown>) => void, registrationId: string, cartId: string): void {
  waitUntil(
    (async () => {
      const [linked] = await db
        .select({ raceId: registrations.raceId, optionField: registrations.raceOptionField, passSeason: registrations.passSeason })
        .from(registrations)
        .where(eq(registrations.id, registrationId))
        .limit(1);
      if (linked?.raceId || linked?.optionField) await enqueueJob(env, { kind: "enter-racers", registrationId, cartIds: [cartId] });
      if (linked?.passSeason) await enqueueJob(env, { kind: "issue-passes", registrationId, cartIds: [cartId] });
      const [panel] = await db
        .select({ id: formElements.id })
        .from(formElements)
        .where(and(eq(formElements.registrationId, registrationId), eq(formElements.type, "membership")))
        .limit(1);
      if (panel) await enqueueJob(env, { kind: "record-members", registrationId, cartIds: [cartId] });
    })().catch((error: unknown) => console.error("Queueing the work after a cart failed; the organiser's Re-sync enters them", registrationId, error)),
  );
}
