/**
 * What the Worker's cron triggers do (wrangler.toml [triggers]). The scheduled handler runs it in production;
 * `npm start` runs it through /_dev/cron, since `wrangler dev` does not fire cron triggers by itself.
 */
import { WAITLIST_CRON } from "../core/registration/waitlist";
import { openDb } from "../schema/d1";
import { deleteExpiredAuthRows } from "./auth/cleanup";
import { requeueLostCardMails } from "./services/card-mails";
import { queueDueReminders } from "./services/membership-reminders";
import { dispatchDueNewsletters } from "./services/newsletters";
import { deleteStalePairings } from "./services/serverbox-pairing";
import { refreshDueDomains } from "./services/site-domains";
import { sweepUnreferencedUploads } from "./services/upload-sweep";
import { sweepAllWaitlists } from "./services/waitlists";

/**
 * Every five minutes: waitlist offers, newsletters whose time has come, custom domains still on their way to
 * live (live ones about hourly, decision 0047), membership expiry reminders (decision 0057) and card mails whose
 * message was lost (decision 0063). Hourly: expired sign-in rows, serverbox pairing requests nobody decided on,
 * and uploaded images nothing refers to (decision 0062).
 */
export async function runCron(cron: string, env: Env, now: number): Promise<void> {
  const db = openDb(env.DB);
  if (cron === WAITLIST_CRON) {
    // One failing must not stop the other: each is retried by the next run.
    const results = await Promise.allSettled([
      sweepAllWaitlists(env, db, now),
      dispatchDueNewsletters(env, db, now),
      refreshDueDomains(env, db, now),
      queueDueReminders(env, db, now),
      requeueLostCardMails(env, db, now),
    ]);
    for (const result of results) if (result.status === "rejected") console.error("A five-minute cron task failed", result.reason);
    return;
  }
  await deleteExpiredAuthRows(db, now);
  await deleteStalePairings(db, now);
  // Last, and on its own: R2 failing must not keep the sign-in rows from being cleaned (the next hour retries).
  await sweepUnreferencedUploads(env, db, now).catch((error: unknown) => console.error("Sweeping unreferenced uploads failed", error));
}
